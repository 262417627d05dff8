// The ceiling for a page: bare node:http writing fixed bytes from memory with the same
// headers our server sends. Usage: node bench/bare-server.mjs <port> <body-file> <headers-json>
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [port, bodyFile, headersFile] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = JSON.parse(readFileSync(headersFile, 'utf8'));
http
  .createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  })
  .listen(Number(port), '127.0.0.1', () => console.log(`bare server on ${port}`));
