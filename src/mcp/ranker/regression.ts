/**
 * Softmax regression over binary features (a request's words, pairs of words and concepts), trained by stochastic
 * gradient descent with AdaGrad's steps and an L2 penalty, in an order shuffled by a fixed seed: the same examples give
 * the same model, to the last bit, on every machine. A label takes no step where its gradient is under `negligible`: at
 * the start every label's probability is under it, so a feature gets weights for the labels of the examples it is seen
 * in and for those it is then confused with, and most of the others stay at zero.
 *
 * Training takes longer than a start of the service may, so `npm run generate` trains the model and writes it
 * (`serialise`), and the service reads it (`parse`). Weights under `prune` are left out and the rest kept as thousandths:
 * the model trained and the model read rank alike, to the last bit.
 */

export interface TrainingOptions {
  epochs: number;
  rate: number;
  l2: number;
  negligible: number;
  prune: number;
  seed: number;
}

export interface LabelledFeatures {
  features: readonly string[];
  label: number;
}

/** Weights are written as whole thousandths. */
const scale = 1000;

/** Each feature's weights, for the labels it has one for: `classes` and `weights` from `starts[row]` to `starts[row + 1]`. */
interface Rows {
  index: ReadonlyMap<string, number>;
  starts: Uint32Array;
  classes: Uint8Array;
  weights: Float32Array;
}

/** Rows from each feature's labels and weights, in the order given. */
function rowsOf(entries: ReadonlyArray<[string, ArrayLike<number>]>, weightOf: (value: number) => number): Rows {
  let total = 0;
  for (const [, pairs] of entries) total += pairs.length / 2;
  const index = new Map<string, number>();
  const starts = new Uint32Array(entries.length + 1);
  const classes = new Uint8Array(total);
  const weights = new Float32Array(total);
  let at = 0;
  entries.forEach(([feature, pairs], row) => {
    index.set(feature, row);
    for (let pair = 0; pair < pairs.length; pair += 2) {
      classes[at] = pairs[pair] as number;
      weights[at] = weightOf(pairs[pair + 1] as number);
      at += 1;
    }
    starts[row + 1] = at;
  });
  return { index, starts, classes, weights };
}

export class Regression {
  private constructor(
    readonly labels: readonly string[],
    private readonly rows: Rows,
    private readonly bias: Float64Array,
  ) {}

  /** Whether any of these features has a weight: a request with none of them tells nothing. */
  knowsAny(features: readonly string[]): boolean {
    return features.some((feature) => this.rows.index.has(feature));
  }

  /** Each label's probability for these features, in the order of `labels`, summing to 1. */
  probabilities(features: readonly string[]): Float64Array {
    const logits = Float64Array.from(this.bias);
    const { index, starts, classes, weights } = this.rows;
    for (const feature of features) {
      const row = index.get(feature);
      if (row === undefined) continue;
      for (let at = starts[row] as number, end = starts[row + 1] as number; at < end; at += 1) {
        const label = classes[at] as number;
        logits[label] = (logits[label] as number) + (weights[at] as number);
      }
    }
    return softmaxInPlace(logits);
  }

  static train(examples: readonly LabelledFeatures[], labels: readonly string[], options: TrainingOptions): Regression {
    const count = labels.length;
    const featureIndex = new Map<string, number>();
    const rows = examples.map(({ features, label }) => ({
      label,
      offsets: Int32Array.from(features, (feature) => {
        let index = featureIndex.get(feature);
        if (index === undefined) featureIndex.set(feature, (index = featureIndex.size));
        return index * count;
      }),
    }));
    const table = new Float64Array(featureIndex.size * count);
    const squares = new Float64Array(featureIndex.size * count).fill(1e-8);
    const bias = new Float64Array(count);
    const biasSquares = new Float64Array(count).fill(1e-8);
    const logits = new Float64Array(count);
    const { epochs, rate, l2, negligible } = options;
    let seed = options.seed;
    const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const order = rows.map((_, at) => at);
    for (let epoch = 0; epoch < epochs; epoch += 1) {
      for (let at = order.length - 1; at > 0; at -= 1) {
        const other = Math.floor(random() * (at + 1));
        [order[at], order[other]] = [order[other] as number, order[at] as number];
      }
      for (const at of order) {
        const { offsets, label } = rows[at] as (typeof rows)[number];
        logits.set(bias);
        for (const offset of offsets)
          for (let target = 0; target < count; target += 1)
            logits[target] = (logits[target] as number) + (table[offset + target] as number);
        softmaxInPlace(logits);
        for (let target = 0; target < count; target += 1) {
          const gradient = (logits[target] as number) - (target === label ? 1 : 0);
          if (gradient < negligible && gradient > -negligible) continue;
          biasSquares[target] = (biasSquares[target] as number) + gradient * gradient;
          bias[target] = (bias[target] as number) - (rate * gradient) / Math.sqrt(biasSquares[target] as number);
          for (const offset of offsets) {
            const cell = offset + target;
            const penalised = gradient + l2 * (table[cell] as number);
            squares[cell] = (squares[cell] as number) + penalised * penalised;
            table[cell] = (table[cell] as number) - (rate * penalised) / Math.sqrt(squares[cell] as number);
          }
        }
      }
    }
    // Each feature's labels and weights in thousandths, as the file has them.
    const kept: Array<[string, number[]]> = [];
    for (const [feature, index] of featureIndex) {
      const pairs: number[] = [];
      for (let target = 0; target < count; target += 1) {
        const weight = Math.round((table[index * count + target] as number) * scale);
        if (weight !== 0 && Math.abs(weight) >= options.prune * scale) pairs.push(target, weight);
      }
      if (pairs.length) kept.push([feature, pairs]);
    }
    const rounded = bias.map((value) => Math.round(value * scale) / scale);
    return new Regression(
      labels,
      rowsOf(kept, (weight) => weight / scale),
      rounded,
    );
  }

  /** The model as text: JSON, one feature a line, each with its labels' indexes and weights in thousandths. */
  serialise(header: Record<string, unknown>): string {
    const { index, starts, classes, weights } = this.rows;
    const lines = [...index].map(([feature, row]) => {
      const pairs: number[] = [];
      for (let at = starts[row] as number; at < (starts[row + 1] as number); at += 1)
        pairs.push(classes[at] as number, Math.round((weights[at] as number) * scale));
      return `${JSON.stringify(feature)}:[${pairs.join(',')}]`;
    });
    return `{${Object.entries({ ...header, labels: this.labels, bias: [...this.bias] })
      .map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)},\n`)
      .join('')}"rows":{\n${lines.join(',\n')}\n}}\n`;
  }

  /** A model `serialise` wrote. */
  static parse(text: string): { model: Regression; header: Record<string, unknown> } {
    const { labels, bias, rows, ...header } = JSON.parse(text) as {
      labels: string[];
      bias: number[];
      rows: Record<string, number[]>;
    };
    const model = new Regression(
      labels,
      rowsOf(Object.entries(rows), (weight) => weight / scale),
      Float64Array.from(bias),
    );
    return { model, header };
  }
}

function softmaxInPlace(logits: Float64Array): Float64Array {
  let largest = -Infinity;
  for (const logit of logits) if (logit > largest) largest = logit;
  let total = 0;
  for (let at = 0; at < logits.length; at += 1) {
    logits[at] = Math.exp((logits[at] as number) - largest);
    total += logits[at] as number;
  }
  for (let at = 0; at < logits.length; at += 1) logits[at] = (logits[at] as number) / total;
  return logits;
}
