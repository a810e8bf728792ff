# The design rows, now kept as revisions (0004).

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("modeler", "0004_design_rows_to_revisions"),
    ]

    operations = [
        migrations.RemoveField(model_name="project", name="sample_seed"),
        migrations.DeleteModel(name="PatternParameter"),
        migrations.DeleteModel(name="PatternAction"),
        migrations.DeleteModel(name="AccessPattern"),
        migrations.DeleteModel(name="Attribute"),
        migrations.DeleteModel(name="KeyTemplate"),
        migrations.DeleteModel(name="Entity"),
        migrations.DeleteModel(name="IndexKeyAttribute"),
        migrations.DeleteModel(name="Index"),
        migrations.DeleteModel(name="Table"),
        migrations.DeleteModel(name="SampleItem"),
    ]
