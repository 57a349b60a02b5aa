import type { ReactNode } from 'react';
import { Link, type To } from 'react-router';
import { paths } from '../paths';
import { adminPageTexts } from './admin-texts';

interface Crumb {
  to: To;
  label: ReactNode;
  /** Handed to the page it leads to, as a Link's state (a course the editor already has). */
  state?: unknown;
}

/**
 * The way back from an administrator's page: the dashboard, the pages on the way (`via`), and
 * this page (`current`, left out while it is not known yet).
 */
export function AdminTrail({ via = [], current }: { via?: Crumb[]; current?: ReactNode }) {
  return (
    <nav aria-label={adminPageTexts.trail} className="breadcrumbs py-0 text-sm">
      <ul>
        <li>
          <Link to={paths.dashboard} className="link link-hover">
            {adminPageTexts.dashboard}
          </Link>
        </li>
        {via.map((crumb, index) => (
          <li key={index}>
            <Link to={crumb.to} state={crumb.state} className="link link-hover wrap-anywhere">
              {crumb.label}
            </Link>
          </li>
        ))}
        {current !== undefined && (
          <li className="min-w-0">
            <span aria-current="page" className="truncate">
              {current}
            </span>
          </li>
        )}
      </ul>
    </nav>
  );
}

interface Props {
  /** The page's name, in the trail and as its heading. */
  title: string;
  /** The heading, when it says more than the trail's name (the course being edited). */
  heading?: ReactNode;
  via?: Crumb[];
  /** Under the heading: what the page is for. */
  intro?: string;
  /** Between the heading and the intro: what the page is about (a course's title, its state). */
  subtitle?: ReactNode;
  /** The page's own buttons and links, at the heading's end. */
  actions?: ReactNode;
}

/** The top of an administrator's page: the trail back to the dashboard, the heading, what the page is for, its actions. */
export function AdminPageHeader({ title, heading, via, intro, subtitle, actions }: Props) {
  return (
    <header className="flex flex-col gap-3">
      <AdminTrail via={via} current={title} />
      <div className="flex flex-wrap items-end justify-between gap-x-6 gap-y-4">
        <div className="max-w-2xl min-w-0">
          <h1 className="text-3xl font-bold wrap-anywhere">{heading ?? title}</h1>
          {subtitle}
          {intro && <p className="mt-1 text-base-content/80">{intro}</p>}
        </div>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </div>
    </header>
  );
}
