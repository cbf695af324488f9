import { useId, useState, type KeyboardEvent } from 'react';
import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar, LinePath } from '@visx/shape';
import { csvRecord } from '@dealerpass/domain/csv';
import { TableRegion } from '../../../components/ui/table-region.tsx';
import { money } from './format.ts';

export type TChartUnit = 'dollars' | 'accounts' | 'percent';

export interface IChartSeries {
  key: string;
  label: string;
  /** Cents for dollars; null where there is no value (a rate with nothing to divide). */
  values: (number | null)[];
  color: string;
  /**
   * Money that went back (refunds, chargebacks): the values are the amounts, as the table and the
   * CSV give them, and the bars are drawn below the axis. A CSV cell starting with '-' is text in
   * a spreadsheet (the domain's formula rule, decisions 030 and 048), so amounts stay unsigned.
   */
  below?: boolean;
}

export interface IChartProps {
  title: string;
  kind: 'bar' | 'line';
  categories: { key: string; label: string }[];
  series: IChartSeries[];
  unit: TChartUnit;
  xLabel: string;
  yLabel: string;
  /** The trend in words, read by screen readers and shown under the chart. */
  summary: string;
  /** The file name of the CSV download, without extension. */
  csvName: string;
  /** A bar or point chosen: list the accounts behind it. */
  onPick?: (category: string, series: string) => void;
}

const WIDTH = 640;
const HEIGHT = 280;
const MARGIN = { top: 16, right: 16, bottom: 56, left: 76 };

/** A value as the chart's unit says (dollars from cents, a count, a percentage). */
export function formatValue(value: number | null, unit: TChartUnit): string {
  if (value === null) return '—';
  if (unit === 'dollars') return money(value);
  if (unit === 'percent') return `${value.toFixed(1)}%`;
  return value.toLocaleString('en-US');
}

/** The CSV cell of a value: dollars with two decimals, counts and percentages as numbers. */
function csvValue(value: number | null, unit: TChartUnit): string {
  if (value === null) return '';
  return unit === 'dollars' ? (value / 100).toFixed(2) : String(value);
}

/** The chart's numbers as CSV (RFC 4180, formula-safe: the domain's CSV rules). */
export function chartCsv(props: Pick<IChartProps, 'categories' | 'series' | 'unit' | 'xLabel'>) {
  const unitName = props.unit === 'dollars' ? ' (USD)' : props.unit === 'percent' ? ' (%)' : '';
  return (
    csvRecord([props.xLabel, ...props.series.map((series) => `${series.label}${unitName}`)]) +
    props.categories
      .map((category, index) =>
        csvRecord([
          category.label,
          ...props.series.map((series) => csvValue(series.values[index] ?? null, props.unit)),
        ]),
      )
      .join('')
  );
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${name}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/**
 * One chart of the overview (issue 29): a visible title, axes labelled with their units, the
 * trend in words, "Show as table" and "Download CSV" with the same numbers, and each bar or point
 * a button that lists the accounts behind it. SVG drawn with visx (docs/decisions/043).
 */
export function OverviewChart(props: IChartProps) {
  const { title, kind, categories, series, unit, xLabel, yLabel, summary, onPick } = props;
  const id = useId();
  const [showTable, setShowTable] = useState(false);
  const innerWidth = WIDTH - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  // Where a value is drawn: below the axis for money that went back.
  const drawn = (item: IChartSeries, value: number | null) =>
    value === null ? null : item.below ? -value : value;
  const values = series.flatMap((item) =>
    item.values.map((value) => drawn(item, value)).filter((v): v is number => v !== null),
  );
  const max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  const x = scaleBand<string>({
    domain: categories.map((category) => category.key),
    range: [0, innerWidth],
    padding: 0.2,
  });
  const inner = scaleBand<string>({
    domain: series.map((item) => item.key),
    range: [0, x.bandwidth()],
    padding: 0.1,
  });
  const y = scaleLinear<number>({
    domain: [min, max === min ? min + 1 : max],
    range: [innerHeight, 0],
    nice: true,
  });
  const labelOf = new Map(categories.map((category) => [category.key, category.label]));
  const tickEvery = Math.ceil(categories.length / 8);
  const pick = (category: string, key: string) => onPick?.(category, key);
  const onKey = (event: KeyboardEvent, category: string, key: string) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      pick(category, key);
    }
  };
  const markProps = (category: string, item: IChartSeries, value: number | null) =>
    onPick
      ? {
          role: 'button',
          tabIndex: 0,
          'aria-label': `${item.label}, ${labelOf.get(category)}: ${formatValue(value, unit)}. List the accounts`,
          onClick: () => pick(category, item.key),
          onKeyDown: (event: KeyboardEvent) => onKey(event, category, item.key),
          className: 'overview-chart__mark',
        }
      : { 'aria-hidden': true };

  return (
    <section className="admin-section card overview-chart" aria-labelledby={`${id}-title`}>
      <div className="admin-section__head">
        <h2 id={`${id}-title`}>{title}</h2>
        <div className="admin-section__actions">
          <button
            type="button"
            className="button button--secondary"
            aria-expanded={showTable}
            aria-controls={`${id}-table`}
            onClick={() => setShowTable((shown) => !shown)}
          >
            {showTable ? 'Hide table' : 'Show as table'}
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => download(props.csvName, chartCsv(props))}
          >
            Download CSV<span className="visually-hidden">: {title}</span>
          </button>
        </div>
      </div>
      {series.length > 1 ? (
        <ul className="overview-chart__legend" aria-label="Legend">
          {series.map((item) => (
            <li key={item.key}>
              <span className="overview-chart__swatch" style={{ background: item.color }} />
              {item.label}
            </li>
          ))}
        </ul>
      ) : null}
      <svg
        className="overview-chart__svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="group"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-summary`}
      >
        <Group left={MARGIN.left} top={MARGIN.top}>
          <AxisLeft
            scale={y}
            numTicks={5}
            tickFormat={(value) => formatValue(Number(value), unit).replace(/\.00$/, '')}
            label={yLabel}
            labelOffset={52}
            stroke="#475569"
            tickStroke="#475569"
            tickLabelProps={{ fill: '#1e293b', fontSize: 12, textAnchor: 'end', dx: -4, dy: 4 }}
            labelProps={{ fill: '#1e293b', fontSize: 13, textAnchor: 'middle' }}
          />
          <AxisBottom
            top={innerHeight}
            scale={x}
            tickValues={categories
              .filter((_, index) => index % tickEvery === 0)
              .map((category) => category.key)}
            tickFormat={(key) => labelOf.get(key) ?? key}
            label={xLabel}
            labelOffset={18}
            stroke="#475569"
            tickStroke="#475569"
            tickLabelProps={{ fill: '#1e293b', fontSize: 12, textAnchor: 'middle' }}
            labelProps={{ fill: '#1e293b', fontSize: 13, textAnchor: 'middle' }}
          />
          {min < 0 ? (
            <line x1={0} x2={innerWidth} y1={y(0)} y2={y(0)} stroke="#475569" aria-hidden="true" />
          ) : null}
          {kind === 'bar'
            ? categories.flatMap((category) =>
                series.map((item, seriesIndex) => {
                  const value = item.values[categories.indexOf(category)] ?? null;
                  const position = drawn(item, value) ?? 0;
                  const top = y(Math.max(0, position));
                  const bottom = y(Math.min(0, position));
                  return (
                    <Bar
                      key={`${category.key}-${item.key}`}
                      x={(x(category.key) ?? 0) + (inner(item.key) ?? seriesIndex)}
                      y={top}
                      width={inner.bandwidth()}
                      height={Math.max(position ? 1 : 0, bottom - top)}
                      fill={item.color}
                      {...markProps(category.key, item, value)}
                    />
                  );
                }),
              )
            : series.map((item) => {
                const points = categories
                  .map((category, index) => ({
                    category,
                    value: item.values[index] ?? null,
                    position: drawn(item, item.values[index] ?? null),
                  }))
                  .filter(
                    (
                      point,
                    ): point is {
                      category: typeof point.category;
                      value: number;
                      position: number;
                    } => point.position !== null,
                  );
                const cx = (key: string) => (x(key) ?? 0) + x.bandwidth() / 2;
                return (
                  <g key={item.key}>
                    <LinePath
                      data={points}
                      x={(point) => cx(point.category.key)}
                      y={(point) => y(point.position)}
                      stroke={item.color}
                      strokeWidth={2.5}
                      aria-hidden="true"
                    />
                    {points.map((point) => (
                      <circle
                        key={point.category.key}
                        cx={cx(point.category.key)}
                        cy={y(point.position)}
                        r={5}
                        fill={item.color}
                        {...markProps(point.category.key, item, point.value)}
                      />
                    ))}
                  </g>
                );
              })}
        </Group>
      </svg>
      <p id={`${id}-summary`} className="overview-chart__summary">
        {summary}
      </p>
      <div id={`${id}-table`} hidden={!showTable}>
        {showTable ? (
          <TableRegion label={`${title} as a table`}>
            <table className="admin-table">
              <caption className="visually-hidden">{title}</caption>
              <thead>
                <tr>
                  <th scope="col">{xLabel}</th>
                  {series.map((item) => (
                    <th scope="col" key={item.key}>
                      {item.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {categories.map((category, index) => (
                  <tr key={category.key}>
                    <th scope="row">{category.label}</th>
                    {series.map((item) => (
                      <td key={item.key} className="admin-amount">
                        {formatValue(item.values[index] ?? null, unit)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        ) : null}
      </div>
    </section>
  );
}
