/** The field catalogues (15, 16, 17) and the extras every official client calls: ping and credits. */
import type { Dataset } from '../records';
import { BadRequest, type Ctx, type Handler, ok, type Reply } from './common';

function catalogue(ctx: Ctx, fields: Dataset['fields']['buckets']): Reply {
  const data = fields.map((f) => ({ ...f }));
  if (ctx.dialect === 'live') return ok({ message: 'Fields fetched successfully', pagination: {}, data });
  return ok({ message: 'Fields fetched successfully', pagination: {}, data: {}, Data: data });
}

export const fieldsBuckets: Handler = (ctx) => catalogue(ctx, ctx.ds.fields.buckets);
export const fieldsFiles: Handler = (ctx) => catalogue(ctx, ctx.ds.fields.files);

export const fieldsHosts: Handler = (ctx, [category]) => {
  const fields = ctx.ds.fields.hosts[category.toLowerCase()];
  if (!fields) {
    throw new BadRequest(
      `Unknown field category '${category.slice(0, 40)}'; use one of ${Object.keys(ctx.ds.fields.hosts).join(', ')}`,
    );
  }
  return ok({ message: 'Fields fetched successfully', data: fields.map((f) => ({ ...f })) });
};

export const ping: Handler = () => ({ status: 200, text: 'pong', contentType: 'text/plain; charset=utf-8' });

/**
 * Credits: the official clients' schema in live (fields at the top level, no envelope,
 * `expires_on` an integer of epoch seconds); the spec dialect keeps the enveloped form
 * with an ISO date (the interface document does not list this endpoint).
 */
export const creditsUsage: Handler = (ctx) => {
  const search = {
    host_cert: { left: ctx.credits.hostLeft, plan: ctx.credits.hostPlan },
    bucket_file: { left: ctx.credits.bucketLeft, plan: ctx.credits.bucketPlan },
  };
  if (ctx.dialect === 'live')
    return {
      status: 200,
      body: { search, expires_on: Math.floor(Date.parse(ctx.credits.expiresOn) / 1000) },
    };
  return ok({ message: 'Credits fetched successfully', data: { search, expires_on: ctx.credits.expiresOn } });
};
