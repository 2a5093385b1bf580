// An app imports AppMeter alone: the core's types (MeterInstant, MeterEvent's codes…) and the input parsers come with it.
@_exported import MeasurementCore
@_exported import MeterInput
