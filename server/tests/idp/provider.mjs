// A real OpenID provider for the tests: panva's certified oidc-provider (the version package-lock.json pins),
// configured as an application's identity provider would be for a machine-to-machine API:
//
// - confidential clients with the client_credentials grant only (client_secret_basic or client_secret_post);
// - resource servers (RFC 8707 resource indicators) whose access tokens are JWTs (RFC 9068, `typ: at+jwt`),
//   `aud` the resource indicator, `scope` the granted words of `sessions:create sessions:read ...`;
// - signing keys from a private JWKS file: the first key signs, every key is published at `jwks_uri`.
//
// Usage: node provider.mjs CONFIG.json   (harness.py writes the file; README.md describes its fields)
//
// It listens on the configured address (port 0: one the system picks, so no port can be taken in between),
// over HTTPS when the config names a certificate, then prints one JSON line on stdout:
//   {"event": "ready", "issuer": "https://127.0.0.1:PORT", "port": PORT, "kids": [...], "signing": "KID"}
// Key rotation, as an identity provider rotates: the JWKS file is rewritten (new key first, old keys kept
// published) and SIGHUP makes the provider read it again. The issuer, its address and its clients stay; only
// the keys change. It then prints {"event": "keys", "generation": N, "kids": [...], "signing": "KID"} (N counts
// the SIGHUPs), or {"event": "keys-refused", "generation": N, "message": "..."} and keeps the keys it had.
// Each request for the JWKS prints {"event": "jwks", "generation": G, "kids": [...], "at": T} (G: the SIGHUP
// whose keys answered it, 0 for the first ones; T: when it arrived, in seconds of the monotonic clock), so a
// test can see when a relying party fetched which keys. Lines that do not start with `{` are oidc-provider's own notices. Nothing printed ever holds a
// token, a client secret or a private key. SIGTERM or SIGINT: close and exit 0.

import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import process from 'node:process';

import Provider, { errors } from 'oidc-provider';

const configPath = process.argv[2];
if (!configPath) {
  process.stderr.write('usage: node provider.mjs CONFIG.json\n');
  process.exit(2);
}
const config = JSON.parse(readFileSync(configPath, 'utf8'));

function emit(event) {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

function signingAlg(jwk) {
  if (jwk.alg) return jwk.alg;
  if (jwk.kty === 'RSA') return 'RS256';
  if (jwk.kty === 'EC') return { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' }[jwk.crv];
  if (jwk.kty === 'OKP') return 'EdDSA';
  throw new Error(`no signing algorithm for a ${jwk.kty} key`);
}

function readKeys() {
  const jwks = JSON.parse(readFileSync(config.jwksFile, 'utf8'));
  if (!Array.isArray(jwks.keys) || jwks.keys.length === 0) throw new Error('the JWKS file holds no keys');
  for (const key of jwks.keys) {
    if (typeof key.kid !== 'string' || !key.kid) throw new Error('every key needs a kid');
  }
  const signer = jwks.keys[0];
  return { jwks, signing: { kid: signer.kid, alg: signingAlg(signer) } };
}

const clientTtl = new Map(config.clients.map((client) => [client.client_id, client.accessTokenTTL]));
const resources = new Map(config.resources.map((resource) => [resource.indicator, resource]));
const defaultTtl = config.accessTokenTTL ?? 300;

function buildProvider(issuer, { jwks, signing }) {
  const provider = new Provider(issuer, {
    jwks,
    clients: config.clients.map(({ accessTokenTTL, ...client }) => ({
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      ...client,
    })),
    // (No ID tokens are issued; the default, RS256, would not do for EC keys.)
    clientDefaults: { id_token_signed_response_alg: signing.alg },
    scopes: [...new Set(config.resources.flatMap((resource) => resource.scope.split(' ')))],
    features: {
      clientCredentials: { enabled: true },
      devInteractions: { enabled: false },
      introspection: { enabled: false },
      revocation: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // A token request must name its resource (audience): no token without one.
        defaultResource: async (_ctx, _client, oneOf) => oneOf,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          const resource = resources.get(indicator);
          if (!resource) throw new errors.InvalidTarget();
          return {
            scope: resource.scope,
            audience: resource.audience ?? indicator,
            accessTokenFormat: 'jwt',
            ...(resource.accessTokenTTL ? { accessTokenTTL: resource.accessTokenTTL } : {}),
            jwt: { sign: signing },
          };
        },
      },
    },
    ttl: {
      // Per client first (as Keycloak's per-client access token lifespan), then per resource, then the default.
      ClientCredentials: (_ctx, token, client) =>
        clientTtl.get(client.clientId) ?? token.resourceServer?.accessTokenTTL ?? defaultTtl,
    },
    clientBasedCORS: () => false,
    cookies: { keys: [config.cookieKey] },
    // The tests' clocks are the host's: no tolerance beyond what the relying party applies.
    clockTolerance: 0,
  });
  provider.on('server_error', (_ctx, error) => {
    process.stderr.write(`server_error: ${error?.stack ?? error}\n`);
  });
  return provider;
}

let keys = readKeys();
let generation = 0; // SIGHUPs received
let served = 0; // the generation of the keys in use (a refused file keeps the keys, and their generation)
let provider;
let handler = (_req, res) => {
  res.statusCode = 503;
  res.end();
};

function listener(req, res) {
  const path = (req.url ?? '').split('?', 1)[0];
  if (req.method === 'GET' && path === '/jwks') {
    // `at`: CLOCK_MONOTONIC in seconds (libuv's hrtime), the clock of Python's time.monotonic() on Linux and macOS.
    const at = Number(process.hrtime.bigint()) / 1e9;
    emit({ event: 'jwks', generation: served, kids: keys.jwks.keys.map((key) => key.kid), at });
  }
  handler(req, res);
}

const server = config.tls
  ? https.createServer({ cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) }, listener)
  : http.createServer(listener);
server.keepAliveTimeout = 1000;

server.listen(config.port ?? 0, config.host ?? '127.0.0.1', () => {
  const { port } = server.address();
  const issuer = `${config.tls ? 'https' : 'http'}://${config.host ?? '127.0.0.1'}:${port}`;
  provider = buildProvider(issuer, keys);
  handler = provider.callback();
  emit({ event: 'ready', issuer, port, kids: keys.jwks.keys.map((key) => key.kid), signing: keys.signing.kid });

  process.on('SIGHUP', () => {
    generation += 1;
    try {
      const next = readKeys();
      const replacement = buildProvider(issuer, next);
      keys = next;
      served = generation;
      provider = replacement;
      handler = provider.callback();
      emit({ event: 'keys', generation, kids: keys.jwks.keys.map((key) => key.kid), signing: keys.signing.kid });
    } catch (error) {
      emit({ event: 'keys-refused', generation, message: String(error?.message ?? error) });
    }
  });
});

function stop() {
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
