// Every message carries D-Bus values: whoever uses the bus layer uses them too.
@_exported import BusValue
