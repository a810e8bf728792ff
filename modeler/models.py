"""Projects, their members and their design's history. A design is stored
as revisions (`Revision`); `modeler.conversion` turns the current one into a
`Design` and a `Design` into a new one; nothing else reads them."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone


class OrderedJSONField(models.TextField):
    """JSON stored as its text, so an object's keys read back in the order
    they were written on every database. PostgreSQL's jsonb (a JSONField)
    sorts them by length: a design's `choice` options, which draw by their
    order, and an item's attributes came back in another order than
    SQLite's, and another than the user's."""

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return None if value is None else json.loads(value)

    def to_python(self, value: Any) -> Any:
        return json.loads(value) if isinstance(value, str) else value

    def get_prep_value(self, value: Any) -> Any:
        if value is None:
            return None
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Role(models.TextChoices):
    OWNER = "owner", "Owner"
    EDITOR = "editor", "Editor"
    VIEWER = "viewer", "Viewer"


class Project(models.Model):
    # Copied from the current revision's design, for lists.
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    table_name = models.CharField(max_length=255, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="owned_projects"
    )
    # The number of the current revision. A save made from an older one is
    # merged element by element, or refused as a conflict.
    version = models.PositiveIntegerField(default=1)
    head = models.OneToOneField(
        "Revision", models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The owner's rule for reviews: an approval must come from someone other
    # than the author of the revision it approves.
    approval_by_other = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user's role in a project other than its owner's."""

    project = models.ForeignKey(Project, models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="memberships"
    )
    role = models.CharField(
        max_length=10,
        choices=[(Role.EDITOR, "Editor"), (Role.VIEWER, "Viewer")],
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["project", "user"], name="one_role")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in project {self.project_id}"


class Invitation(models.Model):
    """An invitation by email to join a project, until it is accepted. The
    emailed link carries a token; only its hash is kept."""

    project = models.ForeignKey(Project, models.CASCADE, related_name="invitations")
    email = models.EmailField()
    role = models.CharField(
        max_length=10,
        choices=[(Role.EDITOR, "Editor"), (Role.VIEWER, "Viewer")],
    )
    token_hash = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["project", "email"], name="one_invitation_per_address"
            )
        ]

    def __str__(self) -> str:
        return f"{self.email} ({self.role}) invited to project {self.project_id}"


class ItemSet(models.Model):
    """The items a project's users typed or imported (DynamoDB JSON), kept
    once per content: revisions that did not change them share the row."""

    project = models.ForeignKey(Project, models.CASCADE, related_name="item_sets")
    digest = models.CharField(max_length=64)  # SHA-256 of the items' JSON
    items = OrderedJSONField(default=list)
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["project", "digest"], name="one_item_set_per_content"
            )
        ]

    def __str__(self) -> str:
        return f"{self.count} items of project {self.project_id}"


class Revision(models.Model):
    """One saved state of a project's design: the whole `Design` (encoded by
    `modeler.history.codec`, its own items in an `ItemSet`), who saved it,
    when, and what changed in one line. A project's revisions are numbered
    1, 2, 3... and its `version` is the number of the current one. Revisions
    are never changed or deleted, but for their `label`."""

    class Kind(models.TextChoices):
        CREATE = "create", "Created"
        EDIT = "edit", "Edit"
        RESTORE = "restore", "Restore"
        UNDO = "undo", "Undo"
        REDO = "redo", "Redo"

    project = models.ForeignKey(Project, models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    document = OrderedJSONField()
    items = models.ForeignKey(
        ItemSet, models.CASCADE, null=True, blank=True, related_name="revisions"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="revisions",
    )
    created = models.DateTimeField(default=timezone.now)
    kind = models.CharField(max_length=10, choices=Kind, default=Kind.EDIT)
    summary = models.CharField(max_length=500)
    # A name someone gave it ("reviewed 2026-11-30").
    label = models.CharField(max_length=200, blank=True)
    # The ids (`modeler.history.elements`) of the elements changed from the
    # previous revision.
    changed = models.JSONField(default=list, blank=True)
    # An undo: the revision it took back; a redo: the undo it took back; a
    # restore: the revision whose design it brought back.
    reverts = models.ForeignKey(
        "self", models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["project", "number"], name="one_revision_per_number"
            )
        ]

    def __str__(self) -> str:
        return f"revision {self.number} of project {self.project_id}"


def _price() -> models.DecimalField:
    """US dollars, empty when the project uses the site's prices."""
    return models.DecimalField(max_digits=14, decimal_places=8, null=True, blank=True)


class ReviewSettings(models.Model):
    """A project's settings for the Review section's cost estimate: its own
    DynamoDB prices with the date they were taken (all empty: the site's
    `DYNAMODB_PRICES`), and how many items the table will hold, for the
    storage cost (empty: as many as the sample data)."""

    project = models.OneToOneField(
        Project, models.CASCADE, related_name="review_settings"
    )
    region = models.CharField(max_length=40, blank=True)
    taken = models.DateField(null=True, blank=True)
    read_request_per_million = _price()
    write_request_per_million = _price()
    rcu_hour = _price()
    wcu_hour = _price()
    storage_gb_month = _price()
    stored_items = models.PositiveBigIntegerField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)
    # Saves are checked against the version the page showed, as the
    # design's are: two people's settings never overwrite each other unseen.
    version = models.PositiveIntegerField(default=0)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    def __str__(self) -> str:
        return f"review settings of project {self.project_id}"


class ReviewSession(models.Model):
    """A design review held on one revision: its title, the members taking
    part, and where it stands. Approving records who approved which
    revision; the design may change after, which the Overview then says."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CHANGES_REQUESTED = "changes_requested", "Changes requested"
        APPROVED = "approved", "Approved"

    project = models.ForeignKey(Project, models.CASCADE, related_name="review_sessions")
    revision = models.ForeignKey(Revision, models.PROTECT, related_name="+")
    title = models.CharField(max_length=200)
    status = models.CharField(max_length=20, choices=Status, default=Status.OPEN)
    participants = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="+"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)
    # Who set the status last, and when (the approver, once approved).
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    decided = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"review {self.title!r} of project {self.project_id}"


class ReviewComment(models.Model):
    """A comment in a review, on one element of the design (its id in
    `modeler.history.elements`, so it follows renames) or on the review as
    a whole (element ""), or a reply to another comment."""

    session = models.ForeignKey(ReviewSession, models.CASCADE, related_name="comments")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, related_name="+"
    )
    element = models.CharField(max_length=80, blank=True)
    # The element's label when the comment was written (entity Order), for
    # an element removed since.
    element_label = models.CharField(max_length=300, blank=True)
    parent = models.ForeignKey(
        "self", models.CASCADE, null=True, blank=True, related_name="replies"
    )
    body = models.TextField()
    # The project's version when it was written: the element as it was then.
    written_at = models.PositiveIntegerField()
    resolved = models.BooleanField(default=False)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"comment {self.pk} in review {self.session_id}"


class ReviewVisit(models.Model):
    """When a member last opened a review: the comments written after by
    others are unread for them."""

    session = models.ForeignKey(ReviewSession, models.CASCADE, related_name="visits")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    seen = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["session", "user"], name="one_visit_per_user"
            )
        ]

    def __str__(self) -> str:
        return f"visit of user {self.user_id} to review {self.session_id}"


class ShareLink(models.Model):
    """A read-only link to one revision's review pack for people without an
    account. Only the token's SHA-256 is kept (the link is shown once, when
    it is made); `prefix` names it in the list. It shows the revision, and
    the review comments only when its owner chose so: then the ones in
    `comments`, fixed when it was made, so that nothing written, replied or
    resolved since reaches whoever holds the link."""

    project = models.ForeignKey(Project, models.CASCADE, related_name="share_links")
    revision = models.ForeignKey(Revision, models.PROTECT, related_name="+")
    token_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)
    expires = models.DateTimeField(null=True, blank=True)
    revoked = models.DateTimeField(null=True, blank=True)
    include_comments = models.BooleanField(default=False)
    # The open comments of the revision's reviews, with their replies, when
    # the link was made (with include_comments).
    comments = models.ManyToManyField(ReviewComment, blank=True, related_name="+")

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"share link {self.prefix}… of project {self.project_id}"


class Presence(models.Model):
    """Who has a project open: each open page says so every 20 seconds."""

    project = models.ForeignKey(Project, models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    seen = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["project", "user"], name="one_presence_per_user"
            )
        ]

    def __str__(self) -> str:
        return f"user {self.user_id} on project {self.project_id}"


class SimulationJob(models.Model):
    """One run of a design's simulation in a background worker
    (`modeler.jobs`): its sample data made and loaded, then each access
    pattern run, its result stored as it finishes (`PatternResult`). Jobs
    are found by the design's content (`design_digest`): the same design,
    at whichever version, reuses the job rather than runs it again."""

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"
        CANCELLED = "cancelled", "Cancelled"
        # Queued for a version of the design that a later one replaced
        # before a worker took it: never run.
        SUPERSEDED = "superseded", "Superseded"

    class Phase(models.TextChoices):
        WAITING = "", "Waiting for a worker"
        GENERATING = "generating", "Making the sample data"
        LOADING = "loading", "Loading it into the engine"
        RUNNING = "running", "Running the access patterns"
        REVIEWING = "reviewing", "Reviewing the design"

    project = models.ForeignKey(Project, models.CASCADE, related_name="+")
    revision = models.ForeignKey(Revision, models.CASCADE, related_name="+")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, related_name="+"
    )
    # `modeler.simulation.cache`: the whole design's, and its data's alone.
    design_digest = models.CharField(max_length=64)
    data_digest = models.CharField(max_length=64)
    state = models.CharField(max_length=10, choices=State, default=State.QUEUED)
    phase = models.CharField(max_length=10, choices=Phase, blank=True)
    items_made = models.PositiveIntegerField(default=0)
    items_total = models.PositiveIntegerField(default=0)
    items_loaded = models.PositiveIntegerField(default=0)
    patterns_run = models.PositiveIntegerField(default=0)
    patterns_total = models.PositiveIntegerField(default=0)
    # Per entity, the generated items and the user's own in the table.
    counts = models.JSONField(default=list, blank=True)
    # Why it failed or was cancelled, for the user.
    message = models.TextField(blank=True)
    cancel_requested = models.BooleanField(default=False)
    # The key of the design review it stores in the cache when it is done
    # (`modeler.jobs.reviews`): of the design at the project's prices when
    # it ran.
    review_key = models.CharField(max_length=64, blank=True)
    # The id of its task in the task backend.
    task_id = models.CharField(max_length=64, blank=True)
    created = models.DateTimeField(default=timezone.now)
    started = models.DateTimeField(null=True, blank=True)
    # When its worker last said it was alive (with each progress report).
    heartbeat = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    ACTIVE = (State.QUEUED, State.RUNNING)
    # Ended before every pattern had run.
    ENDED_EARLY = (State.FAILED, State.CANCELLED, State.SUPERSEDED)

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [
            models.Index(fields=["project", "design_digest"], name="job_by_design"),
            models.Index(fields=["project", "state"], name="job_by_state"),
        ]
        constraints = [
            # Two requests at once cannot start two jobs for one design.
            models.UniqueConstraint(
                fields=["project", "design_digest"],
                condition=models.Q(state__in=["queued", "running"]),
                name="one_active_job_per_design",
            )
        ]

    def __str__(self) -> str:
        return f"simulation job {self.pk} of project {self.project_id}"

    @property
    def is_active(self) -> bool:
        return self.state in self.ACTIVE

    # A worker takes a queued job within a second or two; this long without
    # one means the workers are busy with others or none is running.
    LONG_WAIT_SECONDS = 30

    @property
    def waited_seconds(self) -> int | None:
        """How long it has waited for a worker, once that is long."""
        if self.state != self.State.QUEUED:
            return None
        waited = int((timezone.now() - self.created).total_seconds())
        return waited if waited >= self.LONG_WAIT_SECONDS else None

    @property
    def percent(self) -> int:
        """How far it is: making, loading and the patterns weigh 40, 20 and
        40 in a hundred (a pattern costs about as much as many items)."""
        if self.state == self.State.DONE:
            return 100
        made = self.items_made / self.items_total if self.items_total else 0
        loaded = self.items_loaded / self.items_total if self.items_total else 0
        run = self.patterns_run / self.patterns_total if self.patterns_total else 0
        if self.phase == self.Phase.RUNNING and not self.patterns_total:
            run = 1
        return min(99, int(40 * made + 20 * loaded + 40 * run))


class PatternResult(models.Model):
    """One access pattern's result in a simulation job, stored as soon as
    it is run: what the Simulation section's pattern result shows, as JSON
    (`modeler.jobs.results`)."""

    job = models.ForeignKey(SimulationJob, models.CASCADE, related_name="results")
    position = models.PositiveIntegerField()
    name = models.CharField(max_length=500)
    verdict = models.CharField(max_length=10)
    result = models.JSONField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["job", "position"], name="one_result_per_pattern"
            )
        ]

    def __str__(self) -> str:
        return f"result {self.position} of {self.job}"
