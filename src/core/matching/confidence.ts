/**
 * How sure a match is. Each identifier that agrees or disagrees adds or takes points (a profile URL
 * or domain many, a name a few, a location one); a candidate's confidence is a logistic curve of its
 * points, lowered when a runner-up is nearly as good, as two equally likely records are no match.
 */

export interface Evidence {
  points: number;
  agreed: string[];
  disagreed: string[];
}

/** Evidence to weigh a candidate by: `agree` and `disagree` name the field and its points. */
export function collectEvidence(): {
  evidence: Evidence;
  agree: (field: string, points: number) => void;
  disagree: (field: string, points: number) => void;
} {
  const evidence: Evidence = { points: 0, agreed: [], disagreed: [] };
  return {
    evidence,
    agree: (field, points) => {
      evidence.agreed.push(field);
      evidence.points += points;
    },
    disagree: (field, points) => {
      evidence.disagreed.push(field);
      evidence.points -= points;
    },
  };
}

export interface Ranked<Candidate> {
  candidate: Candidate;
  evidence: Evidence;
}

export interface MatchResult<Record, Summary = Record> {
  index: number;
  match: Record | null;
  confidence: number;
  reasons: { agreed: string[]; disagreed: string[] };
  runnersUp: Array<{ confidence: number; match: Summary }>;
}

/** Points at which a candidate is even odds, and how steeply confidence rises with points. */
const EVEN_ODDS = 1.5;
const STEEPNESS = 1.5;
/** Runners-up within this many points make the best one less sure. */
const CLOSE = 1;
/** A best candidate this many points ahead of every other gains the bonus. */
const UNIQUE = 2;
const UNIQUE_BONUS = 0.5;

const logistic = (points: number) => 1 / (1 + Math.exp(-STEEPNESS * (points - EVEN_ODDS)));
const rounded = (value: number) => Math.round(value * 1000) / 1000;

/** Best first; the same candidate found twice counts once. */
export function rankCandidates<Candidate>(
  candidates: Array<Ranked<Candidate>>,
  idOf: (candidate: Candidate) => number | string,
): Array<Ranked<Candidate>> {
  const seen = new Set<number | string>();
  return candidates
    .filter(({ candidate }) => {
      const id = idOf(candidate);
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .sort((a, b) => b.evidence.points - a.evidence.points);
}

export function confidenceOf<Candidate, Record, Summary>(
  index: number,
  ranked: Array<Ranked<Candidate>>,
  toRecord: (candidate: Candidate) => Record,
  toSummary: (candidate: Candidate) => Summary,
): MatchResult<Record, Summary> {
  const [best, second] = ranked;
  if (!best) return { index, match: null, confidence: 0, reasons: { agreed: [], disagreed: [] }, runnersUp: [] };
  const gap = second ? best.evidence.points - second.evidence.points : Infinity;
  // Alone in its neighbourhood, a candidate is likelier the one meant; beside a near twin, less.
  let confidence = logistic(best.evidence.points + (gap >= UNIQUE ? UNIQUE_BONUS : 0));
  if (gap < CLOSE) confidence *= 0.5 + (0.5 * gap) / CLOSE;
  const runnersUp = ranked
    .slice(1)
    .filter((r) => best.evidence.points - r.evidence.points < CLOSE * 2 && logistic(r.evidence.points) >= 0.3)
    .slice(0, 3)
    .map((r) => ({ confidence: rounded(logistic(r.evidence.points)), match: toSummary(r.candidate) }));
  return {
    index,
    match: toRecord(best.candidate),
    confidence: rounded(confidence),
    reasons: { agreed: best.evidence.agreed, disagreed: best.evidence.disagreed },
    runnersUp,
  };
}

/** The results a caller pays for: a match below its bar is not given, so it is not charged. */
export function atConfidence<Record, Summary>(
  results: Array<MatchResult<Record, Summary>>,
  minConfidence: number,
): { results: Array<MatchResult<Record, Summary>>; matched: number } {
  const given = results.map((result) =>
    result.confidence >= minConfidence ? result : { ...result, match: null, runnersUp: [] },
  );
  return { results: given, matched: given.filter((result) => result.match !== null).length };
}
