import { ageText, timeText, utcText } from '../format';

/**
 * An age ("4 s ago") as a `<time>` element: machine-readable `datetime`, the local and UTC time as its title,
 * so the exact moment is one hover or one screen-reader query away while the text ticks.
 */
export function TimeAgo({
  iso,
  now,
  prefix = '',
}: {
  readonly iso: string;
  readonly now: number;
  readonly prefix?: string;
}) {
  return (
    <time dateTime={iso} title={`${timeText(iso)} (${utcText(iso)})`}>
      {prefix}
      {ageText(Date.parse(iso), now)}
    </time>
  );
}
