/**
 * tus 1.0 endpoint at /api/uploads/tus (issue #16 point 1): POST / creates an upload (signed in; Upload-Length
 * ≤ 5 MB else 413); HEAD, PATCH and DELETE /:id only for the upload's owner — anyone else gets 404, the same
 * answer as for an id that does not exist (no existence leak, ASVS 8.2.2). The request is handed to
 * @tus/server with exactly the path that was checked (TUS_PATH or TUS_PATH/<id>, no query string): tus takes the
 * upload id from the URL's last '/', so a query such as `?x=/<someone else's id>` would otherwise make it act on
 * another upload than the one whose owner was checked (ASVS 4.2.1). PATCH bodies (application/offset+octet-stream)
 * are not touched by the JSON parser. Unsafe requests already passed the same-origin check in createApp.
 */
import { Router, type Request, type Response, type NextFunction } from 'express';
import type { AppDeps } from '../../deps.ts';
import { currentUser, requireUser } from '../../http/guards.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { createTusUploads, TUS_PATH, type TusUploads } from './tus.service.ts';

const UPLOAD_ID = /^[A-Za-z0-9_-]{10,64}$/;

/**
 * Drops `Access-Control-Expose-Headers` from the answer @tus/server writes on `res` (it sets it on every answer):
 * the endpoint grants no origin (allowedOrigins: () => false, same-origin only), and a same-origin script reads
 * every header without it, so the list was 300 bytes of each upload request for nothing (issue #17). srvx hands
 * writeHead the headers as an object, a list of [name, value] pairs or a flat list; all three are filtered.
 */
function withoutCorsExposure(res: Response): void {
  const writeHead = res.writeHead;
  const exposure = (name: unknown) => String(name).toLowerCase() === 'access-control-expose-headers';
  res.writeHead = function filtered(this: Response, ...args: unknown[]) {
    res.removeHeader('Access-Control-Expose-Headers');
    const last = args[args.length - 1];
    if (Array.isArray(last)) {
      args[args.length - 1] = Array.isArray(last[0])
        ? last.filter((pair: unknown[]) => !exposure(pair[0]))
        : last.filter((_v, i) => !exposure(last[i - (i % 2)]));
    } else if (last && typeof last === 'object') {
      args[args.length - 1] = Object.fromEntries(Object.entries(last).filter(([name]) => !exposure(name)));
    }
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as typeof res.writeHead;
}

/**
 * Router at /api/uploads/tus (issue #16 point 1; tus 1.0): creation for signed-in users, HEAD/PATCH/DELETE for the owner only (others 404). `tus` defaults to createTusUploads(deps).
 */
export function tusRouter(deps: AppDeps, tus: TusUploads = createTusUploads(deps)): Router {
  const r = Router();
  const pass = async (req: Request, res: Response, id?: string) => {
    req.url = id ? `${TUS_PATH}/${id}` : TUS_PATH;
    withoutCorsExposure(res);
    await tus.handle(req, res);
  };
  // tus clients may tunnel PATCH/DELETE through POST with this header; the checks below judge the real method.
  r.use(requireUser, (req, _res, next) => {
    delete req.headers['x-http-method-override'];
    // tus 1.0 §Tus-Resumable: every request but OPTIONS carries it; answered here in the API's error shape.
    if (req.method !== 'OPTIONS' && req.headers['tus-resumable'] !== '1.0.0') return next(new HttpError(412, 'precondition_failed', 'Tus-Resumable: 1.0.0 header required'));
    next();
  });
  r.post('/', (req, res) => pass(req, res));
  r.all('/:id', async (req: Request, res: Response, next: NextFunction) => {
    if (!['HEAD', 'PATCH', 'DELETE'].includes(req.method)) return next(new HttpError(405, 'method_not_allowed', 'Method not allowed'));
    const id = String(req.params.id);
    const user = currentUser(req);
    const found = UPLOAD_ID.test(id) ? await tus.lookup(id) : undefined;
    if (!found || found.ownerId !== user.id) return next(notFound('Upload not found'));
    if (found.finished) {
      if (req.method !== 'HEAD') return next(notFound('Upload not found'));
      // The bytes already became a document; a client that missed the last answer learns it is complete.
      res.set({ 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(found.size), 'Upload-Length': String(found.size), 'Upload-Document-Id': id });
      return res.status(200).end();
    }
    await pass(req, res, id);
  });
  return r;
}
