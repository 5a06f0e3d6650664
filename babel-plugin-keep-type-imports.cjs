/**
 * For dependency-cruiser only (babel.config.json): a type-only import is a dependency too (an import circle of types is
 * still a circle), so it is kept as a bare import before the TypeScript preset drops it. On entering the program,
 * before the preset's own pass over the imports.
 */
module.exports = function keepTypeImports({ types: t }) {
  return {
    name: 'keep-type-imports',
    visitor: {
      Program: {
        enter(program) {
          for (const statement of program.get('body')) {
            const { node } = statement;
            if (statement.isImportDeclaration() && (node.importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every((specifier) => specifier.importKind === 'type')))) {
              statement.replaceWith(t.importDeclaration([], node.source));
            } else if (statement.isExportNamedDeclaration() && node.source && (node.exportKind === 'type' || node.specifiers.every((specifier) => specifier.exportKind === 'type'))) {
              statement.replaceWith(t.importDeclaration([], node.source));
            }
          }
        },
      },
    },
  };
};
