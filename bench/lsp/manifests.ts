/**
 * Deterministic multi-document manifests for the benchmark: a Deployment, a
 * Service and a ConfigMap per application, every seventh Deployment with a
 * misspelled field (`poarts`) so that both servers have something to report.
 */

/** A manifest of at least `lines` lines; `positionOfEdit` is a line whose value can be changed. */
export function benchManifest(lines: number): { text: string; editLine: number; completionLine: number } {
  const docs: string[] = [];
  let count = 0;
  for (let i = 0; count < lines; i++) {
    const doc = application(i);
    docs.push(doc);
    count += doc.split('\n').length - 1;
  }
  const text = docs.join('---\n');
  const all = text.split('\n');
  return {
    text,
    editLine: all.findIndex((l) => l.startsWith('  replicas:')),
    completionLine: all.findIndex((l) => l.startsWith('        image:')),
  };
}

function application(i: number): string {
  const ports = i % 7 === 0 ? 'poarts' : 'ports';
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-${i}
  labels:
    app: app-${i}
spec:
  replicas: 2
  selector:
    matchLabels:
      app: app-${i}
  template:
    metadata:
      labels:
        app: app-${i}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ${ports}:
        - containerPort: 8080
          protocol: TCP
        env:
        - name: MODE
          value: production
        resources:
          requests:
            cpu: 100m
            memory: 128Mi
---
apiVersion: v1
kind: Service
metadata:
  name: app-${i}
spec:
  selector:
    app: app-${i}
  ports:
  - port: 80
    targetPort: 8080
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: app-${i}
data:
  mode: production
`;
}
