import { z } from 'zod';
import type { FastifyError, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import { ZSignupLeadRequestSchema } from '@dealerpass/domain/schemas/signup-lead';
import {
  ZSignupProgressParamsSchema,
  ZSignupStep1SaveRequestSchema,
  ZSignupStep2SaveRequestSchema,
  type TSignupProgressParams,
  type TSignupStep1SaveRequest,
} from '@dealerpass/domain/schemas/signup-progress';
import {
  ZSignupOrderSummaryRequestSchema,
  ZSignupOrderSummarySchema,
} from '@dealerpass/domain/schemas/signup-order-summary';
import {
  createKeyedSignupRequestSchema,
  createOlderSignupRequestSchema,
} from '@dealerpass/domain/schemas/signup-request';
import { AppError, type FieldError } from '../../errors/app-error.ts';
import { toFieldErrors } from '../../errors/field-errors.ts';
import { refuseRawCardData } from '../../services/billing/raw-card-guard.ts';
import { previewOrderSummary } from '../../services/signup/preview-order-summary.ts';
import { createLead, saveLeadProgress } from '../../services/signup/save-lead.ts';
import { DEFAULT_FORWARD_PATH } from '../../services/signup/send-verification-mail.ts';
import { signUp } from '../../services/signup/sign-up.ts';
import { refuseCompanyEmail } from '../../services/users/refuse-company-email.ts';

/** Per client address (issue 6): a person signing up needs a few; a script gets no further. */
export const SIGNUP_RATE_LIMITS = {
  lead: { max: 10, timeWindow: '10 minutes' },
  progress: { max: 60, timeWindow: '10 minutes' },
  // Page 4 asks again when the promotion code changes; no write, so as many as the saves.
  summary: { max: 60, timeWindow: '10 minutes' },
  signup: { max: 10, timeWindow: '10 minutes' },
} as const;

const ZLeadResponseSchema = z.object({ data: z.object({ id: z.string() }) });
const ZSignupResponseSchema = z.object({ data: z.object({ email: z.string() }) });

/**
 * Sign-up (001 §3, §7; docs/decisions/013): the lead, its partial saves and the final sign-up
 * in its current (`/api/v2/signup`) and older (`/api/signup`) form. Public, rate-limited per
 * client; every body is validated with the domain's schema, the one the wizard's pages use.
 */
const signupRoutes: FastifyPluginAsyncZod = async (app) => {
  const sent = () => void app.mail.kick().catch(() => undefined);

  app.post(
    '/api/signup/contact',
    {
      schema: {
        operationId: 'createSignupLead',
        summary: 'Sign-up page 1: store the contact details as a lead',
        tags: ['Sign-up'],
        body: ZSignupLeadRequestSchema,
        response: { 201: ZLeadResponseSchema },
      },
      bodyLimit: 16 * 1024,
      config: { access: 'public', rateLimit: SIGNUP_RATE_LIMITS.lead },
      errorHandler: withDetails,
    },
    async (request, reply) => {
      refuseCompanyEmail(request.body.email, app.deps.signup);
      const lead = await createLead(app.deps.signup, request.body, request.ip, app.now());
      request.log.info({ leadId: lead.id }, 'sign-up lead stored');
      return reply.status(201).send({ data: { id: lead.id } });
    },
  );

  // One operation per step (001 §3 names both URLs), each with its own body, so the
  // description gives a client the body of the step it saves (docs/decisions/045).
  const progressRoute = <S extends z.ZodType<TSignupStep1SaveRequest>>(
    step: TSignupProgressParams['step'],
    body: S,
  ) =>
    app.patch(
      `/api/signup/detail/update/:leadID/${step}`,
      {
        schema: {
          operationId: `saveSignupStep${step}`,
          summary: `Save the lead’s progress after page ${step} of the wizard`,
          // 404: no such lead.
          errors: [404],
          tags: ['Sign-up'],
          params: ZSignupProgressParamsSchema.pick({ leadID: true }),
          body,
          response: { 200: ZLeadResponseSchema },
        },
        bodyLimit: 16 * 1024,
        config: { access: 'public', rateLimit: SIGNUP_RATE_LIMITS.progress },
        errorHandler: withDetails,
      },
      async (request) => {
        const body = request.body as TSignupStep1SaveRequest;
        refuseCompanyEmail(body.email, app.deps.signup);
        const save = { step, body } as Parameters<typeof saveLeadProgress>[2];
        return { data: await saveLeadProgress(app.db, request.params.leadID, save, app.now()) };
      },
    );
  progressRoute('1', ZSignupStep1SaveRequestSchema);
  progressRoute('2', ZSignupStep2SaveRequestSchema);

  app.post(
    '/api/signup/order-summary',
    {
      schema: {
        operationId: 'getSignupOrderSummary',
        summary:
          'Sign-up page 4: the Order Summary (charged today, next charge date and amount), as the sign-up computes it',
        tags: ['Sign-up'],
        body: ZSignupOrderSummaryRequestSchema,
        response: { 200: z.object({ data: ZSignupOrderSummarySchema }) },
      },
      bodyLimit: 4 * 1024,
      config: { access: 'public', rateLimit: SIGNUP_RATE_LIMITS.summary },
    },
    async (request) => ({ data: await previewOrderSummary(app.deps.signup, request.body) }),
  );

  const keyedSchema = createKeyedSignupRequestSchema(app.now);
  const olderSchema = createOlderSignupRequestSchema(
    app.now,
    `${app.config.publicUrl}${DEFAULT_FORWARD_PATH}`,
  );
  for (const url of ['/api/v2/signup', '/api/signup']) {
    const older = url === '/api/signup';
    app.post(
      url,
      {
        // R5 first. The older flow's schema gives a forwardTo of our own when the form sent none.
        preValidation: async (request: FastifyRequest) => {
          refuseRawCardData(request.body);
        },
        schema: {
          operationId: older ? 'signUpOlderFlow' : 'signUp',
          summary: older
            ? 'Sign up (the older flow: a forwardTo of our own when none is sent)'
            : 'Sign up: create the account and its subscriptions, charge or hold the card',
          tags: ['Sign-up'],
          // 409: the address is in use or its sign-up is in progress; 429: a promotion code's
          // redemptions are used up; 502: the gateway refused the card; 503: a service is down.
          errors: [409, 502, 503],
          body: older ? olderSchema : keyedSchema,
          response: { 201: ZSignupResponseSchema },
        },
        bodyLimit: 32 * 1024,
        config: { access: 'public', rateLimit: SIGNUP_RATE_LIMITS.signup },
        errorHandler: withDetails,
      },
      async (request, reply) => {
        const result = await signUp(app.deps.signup, {
          request: request.body,
          remoteIp: request.ip,
        });
        request.log.info({ flow: older ? 'signup' : 'v2' }, 'signed up');
        sent();
        return reply.status(201).send({ data: { email: result.email } });
      },
    );
  }
};

/**
 * Validation failures of the sign-up routes carry each message in `details` too: 001 §8's toast
 * shows `errors[0].details` for a 400 (docs/decisions/008 #13).
 */
function withDetails(error: FastifyError): never {
  if (!hasZodFastifySchemaValidationErrors(error)) throw error;
  throw validationFailure(
    toFieldErrors(error.validation, errorMessage(ERROR_CODES.VALIDATION_FAILED)),
  );
}

function validationFailure(errors: FieldError[]): AppError {
  return new AppError(ERROR_CODES.VALIDATION_FAILED, {
    errors: errors.map((e) => ({ ...e, details: e.message })),
  });
}

export default signupRoutes;
