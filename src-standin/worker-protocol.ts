/** Messages between the console's thread and the stand-in's worker (checked on both sides). */
import { z } from 'zod';
import { FaultRuleSchema } from './faults';

const Id = z.number().int();

export const WorkerCommandSchema = z.discriminatedUnion('op', [
  z.object({ id: Id, op: z.literal('faults.set'), rules: z.array(FaultRuleSchema) }),
  z.object({ id: Id, op: z.enum(['faults.clear', 'simulator.start', 'simulator.stop', 'simulator.step', 'close']) }),
]);
export type WorkerCommand = z.infer<typeof WorkerCommandSchema>;

export const WorkerAnswerSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('ready'),
    baseUrl: z.string(),
    tokens: z.object({ agent: z.string(), supervisor: z.string(), admin: z.string() }),
    demoAgent: z.object({ userName: z.string(), id: z.number(), name: z.string() }),
    demoSupervisor: z.object({ userName: z.string(), id: z.number(), name: z.string() }),
  }),
  z.object({ type: z.literal('failed'), message: z.string() }),
  z.object({ type: z.literal('reply'), id: Id, error: z.string().optional() }),
]);
export type WorkerAnswer = z.infer<typeof WorkerAnswerSchema>;
