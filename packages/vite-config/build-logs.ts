import type { Rollup } from 'vite';

/**
 * True for the one warning every build printed and nobody can act on: Rollup's INVALID_ANNOTATION ("contains an
 * annotation that Rollup cannot interpret due to the position of the comment") in a dependency's file. zod 4 puts
 * `@__PURE__` in comments Rollup does not read as annotations; Rollup drops the comment and the output is the same.
 * The same warning in our own code is still shown (there it is ours to fix), and so is every other warning.
 */
export function isDependencyAnnotationWarning(log: Pick<Rollup.RollupLog, 'code' | 'id'>): boolean {
  return log.code === 'INVALID_ANNOTATION' && typeof log.id === 'string' && log.id.split(/[\\/]/).includes('node_modules');
}

/** `build.rollupOptions.onwarn` of every build (client and server entries): the warnings above are left out. */
export const onwarn: Rollup.WarningHandlerWithDefault = (warning, warn) => {
  if (!isDependencyAnnotationWarning(warning)) warn(warning);
};
