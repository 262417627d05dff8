import type { OptOutPoint } from '#domain/operations/dashboard/term-figures.ts';
import { formatDay } from '#i18n/format-day.ts';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { useLocale, useT } from '#web/i18n/use-t.ts';

// Issue 39: the term's opt-outs over time, drawn on the server as inline SVG (no chart
// library, no client script), named for screen readers, and the same figures as a table.
const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 44, right: 16, top: 16, bottom: 36 };

const dayTime = (day: string) => Date.parse(`${day}T00:00:00Z`);

export function OptOutChart({ points }: { points: readonly OptOutPoint[] }) {
  const t = useT();
  const locale = useLocale();
  const dayLabel = (day: string) => formatDay(locale, day, 'medium');
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return <p>{t('ops.dashboard.chart.none')}</p>;
  const top = Math.max(1, ...points.map((p) => p.runningTotal));
  const bottom = Math.min(0, ...points.map((p) => p.runningTotal));
  const span = Math.max(1, dayTime(last.day) - dayTime(first.day));
  const x = (day: string) =>
    PAD.left + ((dayTime(day) - dayTime(first.day)) / span) * (WIDTH - PAD.left - PAD.right);
  const y = (value: number) =>
    PAD.top + ((top - value) / (top - bottom)) * (HEIGHT - PAD.top - PAD.bottom);
  // A step line: the total holds until the next day with events.
  const path = points
    .map((p, i) => {
      const here = `${x(p.day).toFixed(1)},${y(p.runningTotal).toFixed(1)}`;
      if (i === 0) return `M${here}`;
      return `H${x(p.day).toFixed(1)} V${y(p.runningTotal).toFixed(1)}`;
    })
    .join(' ');
  return (
    <figure className="opt-out-chart stack-sm">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="opt-out-chart-title opt-out-chart-desc"
        className="opt-out-chart__svg"
      >
        <title id="opt-out-chart-title">{t('ops.dashboard.chart.title')}</title>
        <desc id="opt-out-chart-desc">
          {t('ops.dashboard.chart.desc', {
            first: dayLabel(first.day),
            last: dayLabel(last.day),
            total: last.runningTotal,
          })}
        </desc>
        <line
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={y(bottom)}
          y2={y(bottom)}
          className="opt-out-chart__axis"
        />
        <line
          x1={PAD.left}
          x2={PAD.left}
          y1={PAD.top}
          y2={y(bottom)}
          className="opt-out-chart__axis"
        />
        <text x={PAD.left - 6} y={y(top) + 4} textAnchor="end" className="opt-out-chart__label">
          {top}
        </text>
        <text x={PAD.left - 6} y={y(bottom) + 4} textAnchor="end" className="opt-out-chart__label">
          {bottom}
        </text>
        <text x={PAD.left} y={HEIGHT - 10} className="opt-out-chart__label">
          {dayLabel(first.day)}
        </text>
        {last.day === first.day ? null : (
          <text
            x={WIDTH - PAD.right}
            y={HEIGHT - 10}
            textAnchor="end"
            className="opt-out-chart__label"
          >
            {dayLabel(last.day)}
          </text>
        )}
        <path d={path} className="opt-out-chart__line" />
        {points.map((p) => (
          <circle
            key={p.day}
            cx={x(p.day)}
            cy={y(p.runningTotal)}
            r={3}
            className="opt-out-chart__dot"
          />
        ))}
      </svg>
      <figcaption>
        <details>
          <summary>{t('ops.dashboard.chart.table')}</summary>
          <TableScroll label={t('ops.dashboard.chart.title')}>
            <table className="data-table">
              <caption className="visually-hidden">{t('ops.dashboard.chart.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('ops.dashboard.chart.day')}</th>
                  <th scope="col" className="num">
                    {t('ops.dashboard.chart.optOuts')}
                  </th>
                  <th scope="col" className="num">
                    {t('ops.dashboard.chart.optIns')}
                  </th>
                  <th scope="col" className="num">
                    {t('ops.dashboard.chart.runningTotal')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {points.map((p) => (
                  <tr key={p.day}>
                    <th scope="row">{dayLabel(p.day)}</th>
                    <td className="num">{p.optOuts}</td>
                    <td className="num">{p.optIns}</td>
                    <td className="num">{p.runningTotal}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </details>
      </figcaption>
    </figure>
  );
}
