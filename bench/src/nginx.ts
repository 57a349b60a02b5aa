import fs from 'node:fs/promises';
import path from 'node:path';
import { freePort, startService, waitUntilUp, type Service } from './processes.ts';

/**
 * nginx as the reference static server: one worker (the product is one Node
 * process), sendfile on, no access log; `urlPrefix` maps onto `directory`, so
 * the path of a signed URL finds the very file the product serves.
 */
export async function startNginx(workDir: string, serve: { urlPrefix: string; directory: string }, probePath: string): Promise<Service & { url: string }> {
  const prefix = path.join(workDir, 'nginx');
  await fs.mkdir(path.join(prefix, 'temp'), { recursive: true });
  const port = await freePort();
  const config = path.join(prefix, 'nginx.conf');
  await fs.writeFile(
    config,
    `
daemon off;
worker_processes 1;
${process.getuid?.() === 0 ? 'user root;' : ''}
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  types { video/mp4 mp4; text/html html; application/javascript js; application/vnd.apple.mpegurl m3u8; video/mp2t ts; }
  default_type application/octet-stream;
  client_body_temp_path ${prefix}/temp/body;
  proxy_temp_path ${prefix}/temp/proxy;
  fastcgi_temp_path ${prefix}/temp/fastcgi;
  uwsgi_temp_path ${prefix}/temp/uwsgi;
  scgi_temp_path ${prefix}/temp/scgi;
  server {
    listen 127.0.0.1:${port};
    location ${serve.urlPrefix} { alias ${serve.directory}/; }
  }
}
`,
  );
  const nginx = startService('nginx', 'nginx', ['-p', prefix, '-c', config, '-e', `${prefix}/error.log`], { logFile: path.join(workDir, 'nginx.log') });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(`${url}${probePath}`);
  } catch (error) {
    await nginx.stop();
    throw error;
  }
  return { ...nginx, url };
}
