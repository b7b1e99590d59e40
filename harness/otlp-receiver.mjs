// An OTLP/HTTP trace receiver on loopback that keeps every span it is sent, in either encoding the
// backend exports in: http/json and http/protobuf (decoded here, from the wire format, for the fields kept).
import http from 'node:http';
import { gunzipSync } from 'node:zlib';

const KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];

/** The fields of one protobuf message: field number → values (varints as BigInt, the rest as Buffers). */
function fields(buffer) {
  const found = new Map();
  let at = 0;
  const varint = () => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = buffer[at++];
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < buffer.length) {
    const key = Number(varint());
    const [number, type] = [key >>> 3, key & 7];
    let value;
    if (type === 0) value = varint();
    else if (type === 1) value = buffer.subarray(at, (at += 8));
    else if (type === 5) value = buffer.subarray(at, (at += 4));
    else if (type === 2) {
      const length = Number(varint());
      value = buffer.subarray(at, (at += length));
    } else throw new Error(`protobuf wire type ${type} not expected`);
    found.set(number, [...(found.get(number) ?? []), value]);
  }
  return found;
}

const first = (message, number) => message.get(number)?.[0];
const text = (bytes) => (bytes ? bytes.toString('utf8') : '');

/** An AnyValue: string, bool, int or double (what span attributes hold here). */
function protoValue(bytes) {
  const value = fields(bytes);
  if (value.has(1)) return text(first(value, 1));
  if (value.has(2)) return first(value, 2) === 1n;
  if (value.has(3)) return Number(BigInt.asIntN(64, first(value, 3)));
  if (value.has(4)) return first(value, 4).readDoubleLE(0);
  return undefined;
}

function protoAttributes(list = []) {
  return Object.fromEntries(
    list.map((bytes) => {
      const pair = fields(bytes);
      return [text(first(pair, 1)), first(pair, 2) ? protoValue(first(pair, 2)) : undefined];
    }),
  );
}

/** ExportTraceServiceRequest (protobuf) → spans. */
function protoSpans(body) {
  const spans = [];
  for (const resourceSpans of fields(body).get(1) ?? []) {
    const rs = fields(resourceSpans);
    const resource = first(rs, 1) ? protoAttributes(fields(first(rs, 1)).get(1)) : {};
    for (const scopeSpans of rs.get(2) ?? []) {
      for (const bytes of fields(scopeSpans).get(2) ?? []) {
        const span = fields(bytes);
        spans.push({
          service: resource['service.name'],
          traceId: first(span, 1)?.toString('hex') ?? '',
          spanId: first(span, 2)?.toString('hex') ?? '',
          parentSpanId: first(span, 4)?.toString('hex') || undefined,
          name: text(first(span, 5)),
          kind: KINDS[Number(first(span, 6) ?? 0n)],
          attributes: protoAttributes(span.get(9)),
        });
      }
    }
  }
  return spans;
}

/** An id in OTLP/JSON: hex as the spec says, or base64 as some encoders send it. */
const jsonId = (id) =>
  !id ? undefined : /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');

function jsonValue(value = {}) {
  if ('stringValue' in value) return value.stringValue;
  if ('boolValue' in value) return value.boolValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return value.doubleValue;
  return undefined;
}

const jsonAttributes = (list = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, jsonValue(value)]));

/** ExportTraceServiceRequest (JSON) → spans. */
function jsonSpans(body) {
  const spans = [];
  for (const rs of JSON.parse(body.toString('utf8')).resourceSpans ?? []) {
    const resource = jsonAttributes(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        spans.push({
          service: resource['service.name'],
          traceId: jsonId(span.traceId),
          spanId: jsonId(span.spanId),
          parentSpanId: jsonId(span.parentSpanId),
          name: span.name,
          kind: KINDS[span.kind ?? 0],
          attributes: jsonAttributes(span.attributes),
        });
      }
    }
  }
  return spans;
}

/**
 * Listens on 127.0.0.1 (a free port) for POST /v1/traces. `spans`: every span so far, flattened
 * ({ service, traceId, spanId, parentSpanId, name, kind, attributes }); `encodings`: the content types seen.
 */
export async function startOtlpReceiver() {
  const spans = [];
  const encodings = new Set();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      try {
        let body = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        const type = (req.headers['content-type'] ?? '').split(';')[0].trim();
        encodings.add(type);
        spans.push(...(type === 'application/json' ? jsonSpans(body) : protoSpans(body)));
        // An empty ExportTraceServiceResponse: all accepted.
        if (type === 'application/json') res.writeHead(200, { 'content-type': type }).end('{}');
        else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  // Never what keeps a run alive.
  server.unref();
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    spans,
    encodings,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
