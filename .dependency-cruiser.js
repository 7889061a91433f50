/**
 * Import cycles are errors. Type-only imports count (tsPreCompilationDeps): a type cycle still ties two
 * modules together, and the layers (layers.config.js, checked by ESLint) say which way an import may go.
 */
export default {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'Modules import each other, directly or through others: move the shared part into a module of its own.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|data|\\.test-data|\\.scratch)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
