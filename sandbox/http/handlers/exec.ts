/**
 * `pods/<name>/exec`, `pods/<name>/attach` and `pods/<name>/portforward`:
 * the streaming subresources kubectl reaches with a connection upgrade.
 * They are checked as the API server checks them (the pod exists, has a
 * node, the container is named and runs) so learners see upstream's errors.
 * Exec runs a command in the simulated container (`Cluster.exec`) over
 * WebSocket (`v5.channel.k8s.io`, what kubectl 1.30+ tries first); attach,
 * port-forward, interactive exec and SPDY are answered with why not.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import { badRequest } from '../../api/errors';
import type { ExecResult } from '../../cluster/cluster';
import { streamContainer } from '../../kubelet/exec';
import type { StreamKind } from '../../kubelet/exec';
import type { RequestContext } from '../context';
import { isTrue } from '../requestInfo';
import { channelFrame, closeFrame, handshakeResponse, isWebSocketUpgrade, offeredProtocols } from '../websocket';

/** The remotecommand subprotocols served; both carry a Status on channel 3. */
const PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io'];

const UNAVAILABLE: Record<StreamKind, string> = {
  exec: 'exec is not available',
  attach: 'attach is not available',
  portforward: 'port-forward is not available',
};

/** The sandbox's answer where a real process would be needed. */
export function notAvailable(kind: StreamKind): string {
  return `the sandbox simulates containers and runs no processes: ${UNAVAILABLE[kind]}`;
}

const INTERACTIVE =
  'the sandbox simulates containers and runs no processes: interactive exec (-i, -t) is not available; run one command instead, e.g. kubectl exec POD -- env';
const SPDY =
  'the sandbox serves exec over WebSocket only (v5.channel.k8s.io, kubectl 1.30 or later); SPDY is not available';

/** 404 for a missing pod; the 400s of `streamContainer`. */
function checked(ctx: RequestContext, kind: StreamKind): { pod: Pod; container?: string } {
  const pod = ctx.api.get('pods', ctx.info.namespace!, ctx.info.name!);
  const container = streamContainer(pod, kind, ctx.query.get('container') ?? undefined);
  return container === undefined ? { pod } : { pod, container };
}

function refuse(kind: StreamKind): (ctx: RequestContext) => void {
  return (ctx) => {
    checked(ctx, kind);
    throw badRequest(notAvailable(kind));
  };
}

export const podAttach = refuse('attach');
export const podPortForward = refuse('portforward');

/** The metav1.Status the kubelet writes on the error channel when the command ends. */
function exitStatus(argv: readonly string[], code: number): object {
  if (code === 0) return { metadata: {}, status: 'Success' };
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${argv.join(' ')}], exit code ${code}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
  };
}

export function podExec(ctx: RequestContext): void {
  const { container } = checked(ctx, 'exec');
  const argv = ctx.query.getAll('command');
  if (argv.length === 0) throw badRequest('you must specify at least 1 command');
  if (!isWebSocketUpgrade(ctx.req)) throw badRequest(SPDY);
  const protocol = offeredProtocols(ctx.req).find((p) => PROTOCOLS.includes(p));
  if (!protocol)
    throw badRequest(
      `none of the offered WebSocket subprotocols is served; the sandbox speaks ${PROTOCOLS.join(', ')}`,
    );
  const interactive = isTrue(ctx.query.get('tty')) || isTrue(ctx.query.get('stdin'));
  // Run before the handshake, so that its errors are ordinary Status responses.
  const result: ExecResult | undefined = interactive
    ? undefined
    : ctx.server.cluster.exec(ctx.info.namespace!, ctx.info.name!, container, argv);

  const socket = ctx.req.socket;
  ctx.res.detachSocket(socket);
  ctx.res.statusCode = 101;
  const frames: Buffer[] = [
    Buffer.from(handshakeResponse(ctx.req.headers['sec-websocket-key'] as string, protocol), 'latin1'),
  ];
  if (!result) {
    frames.push(
      channelFrame(
        3,
        JSON.stringify({ metadata: {}, status: 'Failure', message: INTERACTIVE, reason: 'BadRequest', code: 400 }),
      ),
    );
  } else {
    if (result.stdout !== '' && isTrue(ctx.query.get('stdout'))) frames.push(channelFrame(1, result.stdout));
    if (result.stderr !== '' && isTrue(ctx.query.get('stderr'))) frames.push(channelFrame(2, result.stderr));
    frames.push(channelFrame(3, JSON.stringify(exitStatus(argv, result.exitCode))));
  }
  frames.push(closeFrame());
  // Whatever the client sends (stdin, pings, its close) is not needed: the command has already run.
  socket.on('data', () => undefined);
  socket.end(Buffer.concat(frames));
}
