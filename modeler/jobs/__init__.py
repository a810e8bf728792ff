"""Long work in a background worker: the simulation of a design, run as a
job (`SimulationJob`) by django-tasks' database backend. `results` and
`budget` are plain Python; `runner` does the work with the database;
`tasks` is the task the workers take; `services` starts, finds and cancels
jobs for the views."""
