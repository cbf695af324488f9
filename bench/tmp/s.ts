import { z } from 'zod';
import { responseSerializerCompiler } from '../../apps/server/src/lib/response-serializer.ts';
const c = (schema: unknown) => responseSerializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' } as never);
const plain = c(z.object({ a: z.string(), b: z.number().nullable(), r: z.record(z.string(), z.unknown()), arr: z.array(z.object({ x: z.boolean() })) }));
console.log(plain.toString().slice(0, 60), plain({ a: 'x', b: null, r: { q: [1] }, arr: [{ x: true, y: 1 }], secret: 's' }));
const refined = c(z.object({ a: z.object({ b: z.string().refine((v) => v.length > 3) }) }));
try { console.log(refined({ a: { b: 'x' } })); } catch (e) { console.log('refined throws', (e as Error).name); }
const checked = c(z.object({ a: z.string().email() }));
try { console.log(checked({ a: 'x' })); } catch (e) { console.log('checked throws', (e as Error).name); }
const missing = c(z.object({ a: z.string() }));
try { console.log(missing({})); } catch (e) { console.log('missing throws', (e as Error).message); }
