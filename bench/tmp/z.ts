import { z } from 'zod';
import { ZCurrentUserSchema } from '../../apps/server/src/services/users/serialize-user.ts';
const s = z.object({ data: ZCurrentUserSchema, x: z.enum(['a','b']).optional(), l: z.literal('x'), u: z.union([z.string(), z.number()]), lo: z.looseObject({a: z.string()}) }).meta({ id: 'Foo' });
console.log(JSON.stringify(z.toJSONSchema(s, { io: 'output', target: 'draft-7', unrepresentable: 'throw', cycles: 'throw', metadata: z.registry() } as never)).slice(0, 3000));
try { z.toJSONSchema(z.object({ a: z.string().transform((x) => x.length) }), { io: 'output', unrepresentable: 'throw' }); console.log('transform ok?!'); } catch (e) { console.log('transform throws', (e as Error).message); }
try { console.log(JSON.stringify(z.toJSONSchema(z.object({ a: z.string().refine((x) => x.length > 2) }), { io: 'output', unrepresentable: 'throw' }))); } catch (e) { console.log('refine throws', (e as Error).message); }
try { console.log(JSON.stringify(z.toJSONSchema(z.object({ a: z.date() }), { io: 'output', unrepresentable: 'throw' }))); } catch (e) { console.log('date throws', (e as Error).message); }
