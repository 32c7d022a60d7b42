import { Component, type ReactNode } from 'react';
import { useI18n } from './i18n';

/** A path that names no page the user may see: one that does not exist, or one the role does not give access to. */
export function NotFoundPage() {
  const { t } = useI18n();
  return (
    <section aria-labelledby="not-found-title">
      <h1 id="not-found-title">{t.notFound}</h1>
      <p>{t.notFoundNote}</p>
    </section>
  );
}

function PageFailed() {
  const { t } = useI18n();
  return <p role="alert" className="error page-failed">{t.pageFailed}</p>;
}

/**
 * Around the page: one that throws while it renders (an answer of a shape it does not expect) shows an error in its
 * place instead of React unmounting the whole app, header and navigation with it. Another page (`at`: its path and
 * query) starts afresh.
 */
export class PageBoundary extends Component<{ at: string; children: ReactNode }, { at: string; failed: boolean }> {
  state = { at: this.props.at, failed: false };

  static getDerivedStateFromProps(props: { at: string }, state: { at: string }) {
    return props.at === state.at ? null : { at: props.at, failed: false };
  }

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    return this.state.failed ? <PageFailed /> : this.props.children;
  }
}
