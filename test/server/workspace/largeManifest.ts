/**
 * A deterministic multi-document manifest of about `lines` lines: Deployments of 24 lines and a `---` line each, every
 * tenth with an invalid port.
 */
export function largeManifest(lines: number): string {
  const docs: string[] = [];
  for (let i = 0; docs.length * 25 < lines; i++) {
    docs.push(`apiVersion: apps/v1
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
        ports:
        - containerPort: ${i % 10 === 0 ? 70000 : 8080}
        resources:
          requests:
            cpu: 100m
`);
  }
  return docs.join('---\n');
}
