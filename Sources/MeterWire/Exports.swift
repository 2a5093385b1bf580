// MeterWire is the whole contract for its importers (the SDK, the census): the Foundation-free part too.
@_exported import MeterContract
