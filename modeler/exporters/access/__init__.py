"""Typed data-access code generated from a design (issue 35): a Python
module with a dataclass per entity, key functions from the key templates
and a function per access pattern that sends the request the simulator
checked; and a test module that holds it to what each pattern promises on
the design's sample data.

Pure Python; nothing here imports Django. The requests come from the
simulator's own builder (`modeler.simulation.requests`), given stand-ins
for the values a caller passes at run time (`symbolic`)."""
