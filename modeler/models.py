"""The design as stored rows. `modeler.conversion` turns these into a
`Design` and back; nothing else reads them field by field."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from modeler import design as d


def _choices(values: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(v, v) for v in values]


class Role(models.TextChoices):
    OWNER = "owner", "Owner"
    EDITOR = "editor", "Editor"
    VIEWER = "viewer", "Viewer"


class Project(models.Model):
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="owned_projects"
    )
    # Raised on every saved change; a save based on an older version is
    # refused rather than overwriting someone else's work.
    version = models.PositiveIntegerField(default=1)
    sample_seed = models.BigIntegerField(default=1)
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


class Table(models.Model):
    project = models.OneToOneField(Project, models.CASCADE, related_name="table")
    name = models.CharField(max_length=255)
    partition_key_name = models.CharField(max_length=255)
    partition_key_type = models.CharField(
        max_length=1, choices=_choices(d.KEY_TYPES), default="S"
    )
    sort_key_name = models.CharField(max_length=255, blank=True)
    sort_key_type = models.CharField(
        max_length=1, choices=_choices(d.KEY_TYPES), default="S"
    )
    billing_mode = models.CharField(
        max_length=20, choices=_choices(d.BILLING_MODES), default="PAY_PER_REQUEST"
    )
    read_capacity = models.PositiveIntegerField(null=True, blank=True)
    write_capacity = models.PositiveIntegerField(null=True, blank=True)
    ttl_attribute = models.CharField(max_length=255, blank=True)
    stream_view_type = models.CharField(
        max_length=20, choices=_choices(d.STREAM_VIEW_TYPES), blank=True
    )
    point_in_time_recovery = models.BooleanField(default=False)
    encryption_type = models.CharField(
        max_length=12, choices=_choices(d.ENCRYPTION_TYPES), default="AWS_OWNED"
    )
    kms_key = models.CharField(max_length=2048, blank=True)
    table_class = models.CharField(
        max_length=30, choices=_choices(d.TABLE_CLASSES), default="STANDARD"
    )
    deletion_protection = models.BooleanField(default=False)
    tags = models.JSONField(default=list, blank=True)  # [[key, value], ...]

    def __str__(self) -> str:
        return self.name


class Index(models.Model):
    table = models.ForeignKey(Table, models.CASCADE, related_name="indexes")
    position = models.PositiveIntegerField()
    name = models.CharField(max_length=255)
    kind = models.CharField(max_length=6, choices=_choices(d.INDEX_KINDS))
    projection_type = models.CharField(
        max_length=9, choices=_choices(d.PROJECTION_TYPES), default="ALL"
    )
    projection_attributes = models.JSONField(default=list, blank=True)
    read_capacity = models.PositiveIntegerField(null=True, blank=True)
    write_capacity = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return self.name


class IndexKeyAttribute(models.Model):
    """One attribute of an index key; a GSI key has up to four per part."""

    PARTITION, SORT = "partition", "sort"

    index = models.ForeignKey(Index, models.CASCADE, related_name="key_attributes")
    part = models.CharField(
        max_length=9, choices=[(PARTITION, PARTITION), (SORT, SORT)]
    )
    position = models.PositiveIntegerField()
    name = models.CharField(max_length=255)
    type = models.CharField(max_length=1, choices=_choices(d.KEY_TYPES), default="S")

    class Meta:
        ordering = ["part", "position"]

    def __str__(self) -> str:
        return self.name


class Entity(models.Model):
    project = models.ForeignKey(Project, models.CASCADE, related_name="entities")
    position = models.PositiveIntegerField()
    name = models.CharField(max_length=64)
    description = models.TextField(blank=True)
    sample_per = models.CharField(max_length=64, blank=True)
    count_distribution = models.CharField(
        max_length=7, choices=_choices(d.COUNT_DISTRIBUTIONS), default="fixed"
    )
    count_value = models.PositiveIntegerField(default=10)
    count_low = models.PositiveIntegerField(default=0)
    count_high = models.PositiveIntegerField(default=0)
    count_s = models.FloatField(default=0.0)
    hot_keys = models.PositiveIntegerField(default=0)
    hot_share = models.FloatField(default=0.0)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["project", "name"], name="unique_entity_name"
            )
        ]

    def __str__(self) -> str:
        return self.name


class Attribute(models.Model):
    entity = models.ForeignKey(Entity, models.CASCADE, related_name="attributes")
    position = models.PositiveIntegerField()
    name = models.CharField(max_length=255)
    type = models.CharField(max_length=4, choices=_choices(d.ATTRIBUTE_TYPES))
    required = models.BooleanField(default=True)
    presence = models.FloatField(default=1.0)
    generator = models.JSONField(null=True, blank=True)  # {"kind", "params"}
    description = models.TextField(blank=True)
    max_length = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return self.name


class KeyTemplate(models.Model):
    """An entity's template for one key attribute of the table or an index;
    no row means the entity is absent from that index."""

    entity = models.ForeignKey(Entity, models.CASCADE, related_name="key_templates")
    position = models.PositiveIntegerField()
    key_attribute = models.CharField(max_length=255)
    template = models.CharField(max_length=2048)
    condition = models.CharField(max_length=1000, blank=True)  # sparse: "when"

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.key_attribute}: {self.template}"


class AccessPattern(models.Model):
    project = models.ForeignKey(Project, models.CASCADE, related_name="access_patterns")
    position = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    operation = models.CharField(max_length=20, choices=_choices(d.OPERATIONS))
    index_name = models.CharField(max_length=255, default=d.TABLE_INDEX)
    key = models.JSONField(default=list, blank=True)  # [{attribute, operator, values}]
    filter = models.TextField(blank=True)
    projection = models.JSONField(default=list, blank=True)
    scan_forward = models.BooleanField(default=True)
    limit = models.PositiveIntegerField(null=True, blank=True)
    consistent_read = models.BooleanField(default=False)
    rps = models.FloatField(default=0.0)
    peak_rps = models.FloatField(default=0.0)
    # The expectation; no entities means the pattern states none.
    expects_entities = models.JSONField(default=list, blank=True)
    expects_where = models.JSONField(default=list, blank=True)
    expects_order_by = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return self.name


class PatternParameter(models.Model):
    pattern = models.ForeignKey(
        AccessPattern, models.CASCADE, related_name="parameters"
    )
    position = models.PositiveIntegerField()
    name = models.CharField(max_length=255)
    type = models.CharField(max_length=1, choices=_choices(d.KEY_TYPES), default="S")
    example = models.CharField(max_length=2048, blank=True)

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return self.name


class PatternAction(models.Model):
    pattern = models.ForeignKey(AccessPattern, models.CASCADE, related_name="actions")
    position = models.PositiveIntegerField()
    operation = models.CharField(max_length=14, choices=_choices(d.ACTION_OPERATIONS))
    entity = models.CharField(max_length=64)
    key = models.JSONField(default=list, blank=True)
    set = models.JSONField(default=list, blank=True)  # [[attribute, value], ...]
    remove = models.JSONField(default=list, blank=True)
    condition = models.TextField(blank=True)
    count = models.CharField(max_length=255, blank=True)

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.operation} {self.entity}"


class SampleItem(models.Model):
    """An item a user typed or imported, in DynamoDB JSON."""

    project = models.ForeignKey(Project, models.CASCADE, related_name="sample_items")
    position = models.PositiveIntegerField()
    item = models.JSONField()

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return f"item {self.position} of project {self.project_id}"


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

    def __str__(self) -> str:
        return f"review settings of project {self.project_id}"
