/**
 * The time types: Timestamp and Timespan, ranges of TimeData.
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { timespanToString } from '../format/timespans.js';
import { timestampToString } from '../format/timestamps.js';
import { type PTimeData, PTimespan, PTimestamp, type Value } from '../values.js';
import { type PType, quote, ScalarType, TIMESPAN, TIMESTAMP } from './internal.js';

/**
 * Puppet's PAbstractTimeDataType: `Timestamp[from, to]` and `Timespan[from, to]`, a range of TimeData
 * (undefined ends are open), compared by nanoseconds.
 */
abstract class TimeDataType extends ScalarType {
  constructor(
    readonly from?: PTimeData,
    readonly to?: PTimeData,
  ) {
    super();
  }
  protected inRange(v: PTimeData): boolean {
    return (
      (this.from === undefined || v.nanos >= this.from.nanos) &&
      (this.to === undefined || v.nanos <= this.to.nanos)
    );
  }
  protected override assignableFrom(o: PType): boolean {
    if (o.constructor !== this.constructor) return false;
    const other = o as TimeDataType;
    const fromOk =
      this.from === undefined || (other.from !== undefined && this.from.nanos <= other.from.nanos);
    const toOk = this.to === undefined || (other.to !== undefined && this.to.nanos >= other.to.nanos);
    return fromOk && toOk;
  }
  override generalize(): PType {
    return this.kindDefault();
  }
  /** The text of a bound, as the type prints it (quoted). */
  protected abstract boundText(v: PTimeData): string;
  override toString(): string {
    if (this.from === undefined && this.to === undefined) return this.name;
    const from = this.from === undefined ? 'default' : quote(this.boundText(this.from));
    if (this.to === undefined || (this.from !== undefined && this.to.nanos === this.from.nanos)) {
      return `${this.name}[${from}]`;
    }
    return `${this.name}[${from}, ${quote(this.boundText(this.to))}]`;
  }
}

/** Timestamp[from, to]: a range of points in time. */
export class TimestampType extends TimeDataType {
  override readonly name = 'Timestamp';
  override isInstance(v: Value): boolean {
    return v instanceof PTimestamp && this.inRange(v);
  }
  override kindDefault(): PType {
    return TIMESTAMP;
  }
  protected override boundText(v: PTimeData): string {
    return timestampToString(v);
  }
}

/** Timespan[from, to]: a range of durations. */
export class TimespanType extends TimeDataType {
  override readonly name = 'Timespan';
  override isInstance(v: Value): boolean {
    return v instanceof PTimespan && this.inRange(v);
  }
  override kindDefault(): PType {
    return TIMESPAN;
  }
  protected override boundText(v: PTimeData): string {
    return timespanToString(v);
  }
}
