/**
 * For dependency-cruiser only (babel.config.json): a type-only import is a dependency too (an import circle of types is
 * still a circle), so it is kept as a bare import before the TypeScript preset drops it. On entering the program,
 * before the preset's own pass over the imports.
 */
module.exports = function keepTypeImports({ types: t }) {
  /** An `import type`/`export type … from`, or one whose every name is a type: what the preset would drop. */
  const typeOnly = (statement) => {
    const { node } = statement;
    if (statement.isImportDeclaration()) return node.importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every((specifier) => specifier.importKind === 'type'));
    if (statement.isExportNamedDeclaration() && node.source) return node.exportKind === 'type' || node.specifiers.every((specifier) => specifier.exportKind === 'type');
    return false;
  };
  return {
    name: 'keep-type-imports',
    visitor: {
      Program: {
        enter(program) {
          for (const statement of program.get('body')) if (typeOnly(statement)) statement.replaceWith(t.importDeclaration([], statement.node.source));
        },
      },
    },
  };
};
