import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { byAccount, byAddress, rateLimited } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { currentUser } from '../auth/guards.ts';
import { attachmentDisposition, DOWNLOAD_CACHE_CONTROL } from '../media/download-headers.ts';
import { certificatesExport } from './certificates-export.ts';
import {
  certificatePdf,
  chooseCertificateName,
  courseCertificate,
  issueCertificate,
  listCertificates,
  myCertificates,
  setCertificateRevoked,
  verifyCertificate,
} from './certificates.service.ts';

/** Certificates of completion: the learner's, the public check by code, and the administrator's list. */
export const certificateRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.certificates.mine, {
    handler: async (request) => ({ success: true, message: answers.certificatesFetched, ...(await myCertificates(ctx, currentUser(request))) }),
  });

  route(app, api.certificates.chooseName, {
    rateLimit: rateLimited({ limiter: 'certificateNamesPerAccount', key: byAccount }),
    handler: async (request) => ({
      success: true,
      message: answers.certificateNameChosen,
      ...(await chooseCertificateName(ctx, currentUser(request), request.body.name)),
    }),
  });

  route(app, api.certificates.forCourse, {
    handler: async (request) => ({
      success: true,
      message: answers.certificateFetched,
      ...(await courseCertificate(ctx, currentUser(request), request.params.id)),
    }),
  });

  route(app, api.certificates.verify, {
    rateLimit: rateLimited({ limiter: 'certificateVerificationsPerAddress', key: byAddress }),
    handler: async (request) => ({ success: true, message: answers.certificateVerified, certificate: await verifyCertificate(ctx, request.params.code) }),
  });

  route(app, api.certificates.pdf, {
    handler: async (request, reply) => {
      const { fileName, body } = await certificatePdf(ctx, currentUser(request), request.params.code);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', attachmentDisposition(fileName))
        .header('cache-control', DOWNLOAD_CACHE_CONTROL)
        .send(body);
    },
  });

  route(app, api.certificates.list, {
    handler: async (request) => ({ success: true, message: answers.certificatesFetched, ...(await listCertificates(ctx, request.query)) }),
  });

  route(app, api.certificates.issue, {
    handler: async (request) => ({
      success: true,
      message: answers.certificateIssued,
      certificate: await issueCertificate(ctx, currentUser(request), request.body),
    }),
  });

  route(app, api.certificates.revoke, {
    handler: async (request) => ({
      success: true,
      message: answers.certificateRevocation(request.body.revoked),
      certificate: await setCertificateRevoked(ctx, request.params.code, request.body.revoked),
    }),
  });

  route(app, api.certificates.export, {
    // Each export reads every certificate: a few a minute per admin, as the revenue export.
    rateLimit: rateLimited({ limiter: 'exportsPerAccount', key: byAccount }),
    handler: async (request, reply) => {
      const { fileName, body } = certificatesExport(ctx, request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachmentDisposition(fileName))
        .header('cache-control', DOWNLOAD_CACHE_CONTROL)
        .send(body);
    },
  });
};
