import type { FastifyRequest } from 'fastify';
import type { Settings } from '@lms/contract/settings';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';

/** The logo, checked by its content, stored with the icons made from it. */
export async function setLogo(_ctx: Context, _request: FastifyRequest): Promise<Settings> {
  throw new AppError(404, 'Not built yet');
}

export async function removeLogo(_ctx: Context, _by: string): Promise<Settings> {
  throw new AppError(404, 'Not built yet');
}
