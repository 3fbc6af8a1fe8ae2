/** Commands the walkthrough's steps use: open the example manifest, show the reconciliation log. */
import type { CommandFactory } from './context';

/** The example shipped with the extension, and where it goes in the workspace. */
export const EXAMPLE = 'examples/web.yaml';
export const EXAMPLE_TARGET = 'web.yaml';

/**
 * Opens the workspace's `examples/web.yaml` or `web.yaml`; when neither
 * exists, copies the bundled example to `web.yaml` first (it is applied when saved).
 */
export const openExample: CommandFactory = (ctx) => async () => {
  const target = ctx.files.inFirstFolder(EXAMPLE_TARGET);
  if (target === undefined) {
    ctx.ui.error(
      'Open a folder first: the example manifest is copied into it, and saving it applies it to the sandbox.',
    );
    return;
  }
  for (const candidate of [ctx.files.inFirstFolder(EXAMPLE)!, target]) {
    if (await ctx.files.exists(candidate)) {
      await ctx.ui.openFile(candidate, 0, true);
      return;
    }
  }
  await ctx.files.write(target, await ctx.files.readBundled(EXAMPLE));
  await ctx.ui.openFile(target, 0, true);
};

export const showLog: CommandFactory = (ctx) => async () => {
  ctx.ui.showLog();
};
