import type { PaymentDayTotal, PaymentStatusTotal, PaymentSummaryView, PaymentView } from '@pp/contracts';
import { api, query } from './api';
import { formatCad, type Language, useI18n } from './i18n';
import { AppLink, inMode, ListTable } from './list-table';
import { paymentColumns } from './payments';
import { States, StatusBadge, useLoad } from './ui';

interface HomeView {
  summary: PaymentSummaryView;
  latest: PaymentView[];
}

/** Home: today's and this week's payments by status, gross volume per day, and the latest payments, in the current mode. */
export function HomePage({ mode }: { mode: string }) {
  const { t, language } = useI18n();
  const path = `/api/home${query({ mode, days: '14' })}`;
  const loaded = useLoad(() => api<HomeView>(path), path);
  return (
    <section aria-labelledby="home-title">
      <h1 id="home-title">{t.home}</h1>
      <States loaded={loaded}>
        {({ summary }) => (
          <>
            <div className="stats">
              <StatusTotals id="today" title={t.today} totals={summary.today} />
              <StatusTotals id="week" title={t.thisWeek} totals={summary.this_week} />
            </div>
            <VolumeChart days={summary.daily} language={language} />
          </>
        )}
      </States>
      <h2 id="latest-title">{t.latestPayments}</h2>
      <ListTable loaded={loaded} rows={(home) => home.latest} label={t.latestPayments} columns={paymentColumns(t, language, mode)} />
      <p>
        <AppLink to={inMode('/payments', mode)}>{t.allPayments}</AppLink>
      </p>
    </section>
  );
}

function StatusTotals({ id, title, totals }: { id: string; title: string; totals: PaymentStatusTotal[] }) {
  const { t, language } = useI18n();
  return (
    <section className="card stat" aria-labelledby={`${id}-title`} data-period={id}>
      <h2 id={`${id}-title`}>{title}</h2>
      {totals.length === 0 ? (
        <p className="muted">{t.noPayments}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{t.status}</th>
              <th scope="col">{t.count}</th>
              <th scope="col">{t.volume}</th>
            </tr>
          </thead>
          <tbody>
            {totals.map((total) => (
              <tr key={total.status} data-status={total.status}>
                <td><StatusBadge status={total.status} /></td>
                <td className="count">{total.count}</td>
                <td className="volume">{formatCad(total.volume, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const CHART = { width: 1100, height: 200, gap: 8, bottom: 20 };

/** Bars drawn by React as SVG (no chart library); the same figures follow as a table for screen readers and keyboard users. */
function VolumeChart({ days, language }: { days: PaymentDayTotal[]; language: Language }) {
  const { t } = useI18n();
  const highest = Math.max(1, ...days.map((day) => day.volume));
  const slot = CHART.width / Math.max(1, days.length);
  const plot = CHART.height - CHART.bottom;
  return (
    <figure className="chart card" aria-labelledby="chart-title">
      <figcaption id="chart-title">{t.volumePerDay}</figcaption>
      <svg viewBox={`0 0 ${CHART.width} ${CHART.height}`} role="img" aria-labelledby="chart-title" focusable="false">
        <line x1={0} x2={CHART.width} y1={plot} y2={plot} className="axis" />
        {days.map((day, index) => {
          const height = Math.round((day.volume / highest) * (plot - 4));
          return (
            <g key={day.day} data-day={day.day}>
              <rect x={index * slot + CHART.gap / 2} y={plot - height} width={slot - CHART.gap} height={height} className="bar">
                <title>{`${day.day}: ${formatCad(day.volume, language)} (${day.count})`}</title>
              </rect>
              <text x={index * slot + slot / 2} y={CHART.height - 5} textAnchor="middle" className="tick">{day.day.slice(8)}</text>
            </g>
          );
        })}
      </svg>
      <details>
        <summary>{t.volumePerDay}</summary>
        <table className="chart-table">
          <thead>
            <tr>
              <th scope="col">{t.day}</th>
              <th scope="col">{t.count}</th>
              <th scope="col">{t.volume}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.day} data-day={day.day}>
                <td>{day.day}</td>
                <td>{day.count}</td>
                <td>{formatCad(day.volume, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
