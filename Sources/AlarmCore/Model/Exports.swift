// Configurations and metadata are D-Bus values: whoever uses the core uses them too.
@_exported import BusValue
