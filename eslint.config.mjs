import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/**
 * Lint exists mainly to enforce the architecture: apps may import libs, never
 * each other; libs never import apps; contracts and kernel depend on nothing
 * of ours but each other. Tags live in each project.json.
 */
export default [
  { ignores: ['**/dist', '**/node_modules', '**/tmp', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:app'] },
            { sourceTag: 'scope:testing', onlyDependOnLibsWithTags: ['scope:platform', 'scope:contracts', 'scope:kernel'] },
            { sourceTag: 'scope:platform', onlyDependOnLibsWithTags: ['scope:contracts', 'scope:kernel'] },
            { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: ['scope:kernel'] },
            { sourceTag: 'scope:kernel', onlyDependOnLibsWithTags: [] },
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-empty-object-type': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
];
