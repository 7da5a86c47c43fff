"""
Edits one event of a khal calendar the way khal's editor does, through khal's own code, for the
third-client sync tests (khal-processes.ts). `khal edit` is an interactive terminal form (urwid);
driving it through a pseudo-terminal would test keystrokes, not what khal writes. So this script
does what the form's Save button does (khal/ui/editor.py, EventEditor.save and update_vevent):
every field of the form is written back through the Event's update_* methods (the untouched
ones with the values the form was filled with), the SEQUENCE is incremented, and
CalendarCollection.update writes the file into the vdir. The text written is khal's own.

Two changes have no form field in khal 0.10, and say so:
- a time zone: the form edits dates and times in the event's zone, with no zone chooser. The
  move is made with Event.update_start_end (what Save calls for a changed start/end), given the
  same wall-clock times localized in the new zone: khal writes the DTSTART/DTEND TZIDs and the
  VTIMEZONE itself.
- a deletion: what khal's event list does on "delete" then quit (ui ClassicView.cleanup):
  CalendarCollection.delete(href, etag, calendar).

Usage: khal-edit.py KHAL_CONFIG UID JSON_CHANGE
  JSON_CHANGE is one of {"description": str}, {"location": str}, {"zone": "Area/City"}, {"delete": true}.
"""
import json
import sys

import pytz
from khal.cli import build_collection
from khal.settings import get_config


def main():
    config_path, uid, change = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    conf = get_config(config_path)
    collection = build_collection(conf, None)
    # What `khal edit UID` lists: the occurrences whose text contains the UID. Of a series, the
    # first occurrence of the series itself (ref PROTO, not an exception): the editor writes the
    # times it shows into DTSTART, so a later occurrence would move the series' start.
    found = [e for e in collection.search(uid) if e.uid == uid]
    if not found:
        sys.exit(f'no event with UID {uid}')
    masters = sorted((e for e in found if e.ref == 'PROTO'), key=lambda e: e.start_local)
    event = masters[0] if masters else found[0]

    if change.get('delete'):
        collection.delete(event.href, event.etag, event.calendar)
        return

    # The form's fields as EventEditor.__init__ fills them.
    summary = event.summary
    description = event.description
    location = event.location
    attendees = event.attendees
    categories = event.categories
    url = event.url
    if 'description' in change:
        description = change['description']
    if 'location' in change:
        location = change['location']

    # EventEditor.update_vevent
    event.update_summary(summary)
    event.update_description(description)
    event.update_location(location)
    event.update_attendees(attendees.split(','))
    event.update_categories(categories.split(','))
    event.update_url(url)
    if 'zone' in change:
        zone = pytz.timezone(change['zone'])
        start = zone.localize(event.start.replace(tzinfo=None))
        end = zone.localize(event.end.replace(tzinfo=None))
        event.update_start_end(start, end)

    # EventEditor.save
    event.increment_sequence()
    collection.update(event)


if __name__ == '__main__':
    main()
