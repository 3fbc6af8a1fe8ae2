/**
 * Argo CD's actions on one object: Sync (apply the file that declares it, as
 * saved), Revert Live to Manifest (put the declared state back now, whatever
 * self-heal says) and Update Manifest from Live (write the live values of the
 * drifted fields into the file at the right line, to review and save); and the
 * notification after each self-heal revert, which offers the same update or
 * to turn self-heal off.
 */
import { liveValuesFromDiff } from '../model/manifestEdits';
import type { LiveValue, ManifestEdits } from '../model/manifestEdits';
import { describeFieldChanges } from '../model/fieldChanges';
import { refText } from '../model/objectRef';
import type { ObjectRef, SelfHealRevert } from '../sandbox/protocol';
import type { CommandContext, CommandFactory } from './context';
import { errorMessage } from './context';
import { targetOf } from './objectArg';

export const UPDATE_MANIFEST = 'Update Manifest';
export const TURN_OFF_SELF_HEAL = 'Turn Off Self-Heal';

function declaredOf(ctx: CommandContext, title: string, ref: ObjectRef) {
  const declared = ctx.connection.desired.get(ref.resource, ref.namespace, ref.name);
  if (!declared) ctx.ui.error(`${title}: ${refText(ref)} is not declared in a saved file.`);
  return declared;
}

export const sync: CommandFactory = (ctx) => async (arg) => {
  const ref = targetOf(ctx, 'Sync', arg);
  const declared = ref && declaredOf(ctx, 'Sync', ref);
  if (!declared) return;
  if (!ctx.applySource) return ctx.ui.error('Sync is not available in this build of Kube Reconcile.');
  try {
    await ctx.applySource(declared.source);
  } catch (e) {
    ctx.ui.error(`Sync failed: ${errorMessage(e)}`);
  }
};

export const revertLive: CommandFactory = (ctx) => async (arg) => {
  const ref = targetOf(ctx, 'Revert Live to Manifest', arg);
  if (!ref) return;
  try {
    const r = await ctx.connection.request('revert', ref);
    ctx.ui.notify(
      r.changes.length > 0
        ? `${r.message}: ${describeFieldChanges(r.changes)} from ${r.source}`
        : `${r.message}: nothing to put back from ${r.source}`,
    );
  } catch (e) {
    ctx.ui.error(`Revert Live to Manifest failed: ${errorMessage(e)}`);
  }
};

/** Writes `values` into the declaring file and says what was written and what was left for the user. */
async function writeIntoManifest(
  ctx: CommandContext,
  title: string,
  source: string,
  line: number,
  values: readonly LiveValue[],
): Promise<void> {
  if (!ctx.editManifest) return ctx.ui.error(`${title} is not available in this build of Kube Reconcile.`);
  let result: ManifestEdits | undefined;
  try {
    result = await ctx.editManifest(source, line, values);
  } catch (e) {
    return ctx.ui.error(`${title} failed: ${errorMessage(e)}`);
  }
  if (!result)
    return ctx.ui.error(`${title}: ${source} no longer has the manifest at line ${line + 1}; save and apply it first.`);
  const left = result.skipped.length > 0 ? `; left for you: ${result.skipped.join('; ')}` : '';
  if (result.written.length === 0) return ctx.ui.info(`${title}: nothing could be written into ${source}${left}`);
  const message = `${source}: ${result.written.join(', ')} written from live; save to apply${left}`;
  if (left) ctx.ui.info(message);
  else ctx.ui.notify(message);
}

export const updateManifestFromLive: CommandFactory = (ctx) => async (arg) => {
  const title = 'Update Manifest from Live';
  const ref = targetOf(ctx, title, arg);
  const declared = ref && declaredOf(ctx, title, ref);
  if (!ref || !declared) return;
  const live = ctx.connection.cache.get(ref.resource, ref.namespace, ref.name);
  if (!live) return ctx.ui.error(`${title}: ${refText(ref)} is not in the cluster.`);
  const values = liveValuesFromDiff(declared.manifest, live);
  if (values.length === 0) return ctx.ui.info(`${refText(ref)} already matches ${declared.source}.`);
  await writeIntoManifest(ctx, title, declared.source, declared.line, values);
};

/** The notification after a self-heal revert, with its two offers. */
export async function selfHealNotice(ctx: CommandContext, revert: SelfHealRevert): Promise<void> {
  const what = `${revert.kind.toLowerCase()}/${revert.ref.name}`;
  if (revert.recreated) {
    const choice = await ctx.ui.offer(
      `Self-heal recreated ${what} from ${revert.source}: it had been deleted.`,
      TURN_OFF_SELF_HEAL,
    );
    if (choice === TURN_OFF_SELF_HEAL) await ctx.turnOffSelfHeal?.();
    return;
  }
  const choice = await ctx.ui.offer(
    `Self-heal put ${what} back to ${revert.source}: ${describeFieldChanges(revert.changes)}.`,
    UPDATE_MANIFEST,
    TURN_OFF_SELF_HEAL,
  );
  if (choice === TURN_OFF_SELF_HEAL) await ctx.turnOffSelfHeal?.();
  if (choice === UPDATE_MANIFEST)
    await writeIntoManifest(
      ctx,
      UPDATE_MANIFEST,
      revert.source,
      revert.line,
      revert.changes.map((c) => ({ segments: c.segments, value: c.live })),
    );
}
