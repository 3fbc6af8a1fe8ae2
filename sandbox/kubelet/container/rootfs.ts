/**
 * A container's root filesystem when it starts: the directories of its
 * image's distribution, the files the kubelet manages (`/etc/hosts`,
 * `/etc/hostname`, `/etc/resolv.conf`) and a few an image is known to ship
 * (nginx's and httpd's default pages). Fresh at every start, as a container's
 * writable layer is.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import { imageBaseName } from '../images';
import { FileLayer, FileTree } from './fileSystem';

const DIRS = [
  '/bin',
  '/dev',
  '/etc',
  '/home',
  '/lib',
  '/mnt',
  '/opt',
  '/proc',
  '/root',
  '/run',
  '/sbin',
  '/srv',
  '/sys',
  '/tmp',
  '/usr',
  '/usr/bin',
  '/usr/local',
  '/usr/local/bin',
  '/usr/sbin',
  '/var',
  '/var/log',
  '/var/run',
  '/var/tmp',
];

const IMAGE_FILES: Record<string, Record<string, string>> = {
  nginx: {
    '/usr/share/nginx/html/index.html':
      '<!DOCTYPE html>\n<html>\n<head>\n<title>Welcome to nginx!</title>\n</head>\n<body>\n<h1>Welcome to nginx!</h1>\n<p>If you see this page, the nginx web server is successfully installed and\nworking. Further configuration is required.</p>\n</body>\n</html>\n',
    '/usr/share/nginx/html/50x.html':
      '<!DOCTYPE html>\n<html>\n<head>\n<title>Error</title>\n</head>\n<body>\n<h1>An error occurred.</h1>\n</body>\n</html>\n',
    '/etc/nginx/nginx.conf':
      'user  nginx;\nworker_processes  auto;\n\nevents {\n    worker_connections  1024;\n}\n\nhttp {\n    include       /etc/nginx/mime.types;\n    include /etc/nginx/conf.d/*.conf;\n}\n',
    '/etc/nginx/conf.d/default.conf':
      'server {\n    listen       80;\n    server_name  localhost;\n\n    location / {\n        root   /usr/share/nginx/html;\n        index  index.html index.htm;\n    }\n}\n',
  },
  httpd: {
    '/usr/local/apache2/htdocs/index.html': '<html><body><h1>It works!</h1></body></html>\n',
  },
};

/** Each image's shared layer: its distribution's directories, the device files and the files it ships. */
const layers = new Map<string, FileLayer>();

function imageLayer(image: string): FileLayer {
  const base = imageBaseName(image);
  const key = Object.hasOwn(IMAGE_FILES, base) ? base : '';
  let layer = layers.get(key);
  if (!layer) {
    layer = new FileLayer(DIRS, {
      // Devices read as empty files (what is written to them goes nowhere: see the shell's redirections).
      '/dev/null': '',
      '/dev/zero': '',
      '/dev/random': '',
      '/dev/urandom': '',
      ...(IMAGE_FILES[key] ?? {}),
    });
    layers.set(key, layer);
  }
  return layer;
}

/** The root tree of a new instance of a container of `pod` running `image`: the image's layer and the pod's files. */
export function rootTree(pod: Pod, image: string, podIP: string): FileTree {
  const tree = new FileTree('rootfs', false, imageLayer(image));
  const hostname = pod.spec?.hostname ?? pod.metadata?.name ?? '';
  const ns = pod.metadata?.namespace ?? 'default';
  const subdomain = pod.spec?.subdomain;
  // Made when something first reads the tree (an exec, a command probe, a static file served): until then the pod
  // keeps the four strings they are made of, not the files (issue 16: most of the 150,000 pods are never read).
  tree.lazyFiles(3, () => podFiles(hostname, ns, subdomain, podIP));
  return tree;
}

/** The files the kubelet manages in every container of a pod: `/etc/hostname`, `/etc/hosts`, `/etc/resolv.conf`. */
function podFiles(hostname: string, ns: string, subdomain: string | undefined, podIP: string): Record<string, string> {
  const fqdn = subdomain ? `${hostname}.${subdomain}.${ns}.svc.cluster.local` : undefined;
  return {
    '/etc/hostname': `${hostname}\n`,
    '/etc/hosts': [
      '# Kubernetes-managed hosts file.',
      '127.0.0.1\tlocalhost',
      '::1\tlocalhost ip6-localhost ip6-loopback',
      'fe00::0\tip6-localnet',
      'fe00::0\tip6-mcastprefix',
      'fe00::1\tip6-allnodes',
      'fe00::2\tip6-allrouters',
      `${podIP}\t${fqdn ? `${fqdn}\t` : ''}${hostname}`,
      '',
    ].join('\n'),
    '/etc/resolv.conf': resolvConf(ns),
  };
}

/** One string per namespace (every pod of it has the same file). */
const resolvConfs = new Map<string, string>();
function resolvConf(ns: string): string {
  let text = resolvConfs.get(ns);
  if (text === undefined) {
    text = `search ${ns}.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n`;
    resolvConfs.set(ns, text);
  }
  return text;
}
