#!/usr/bin/env python3
"""Turns the kit's JUnit XML (GatewayUnderTest{Wire,Fault,Client}Tests) into a committed compatibility reading.

Writes OUT/junit/*.xml (the XML without its <properties>: the JVM's system properties are no part of the reading) and
OUT/kit-outcomes.json: each rule's outcome per target (vllm non-stream ... sglang stream) and each failure's or
abort's message, its gateway command and log path left out.

Usage: tools/compatibility/kit-outcomes.py OUT GATEWAY DATE COMMIT HOST COMMAND XML...
"""
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

ORDER = ['vllm non-stream', 'vllm stream', 'sglang non-stream', 'sglang stream']


def main(out, gateway, date, commit, host, command, files):
    os.makedirs(os.path.join(out, 'junit'), exist_ok=True)
    reading = {"schema": "fak-battery.kit-compatibility-reading.v1", "gateway": gateway, "date": date, "commit": commit,
               "host": host, "command": command,
               "outcome_source": "the JUnit XML beside this file: PASS = passed, FAIL = failed, ABORTED = aborted "
                                 "(not applicable, pending or not judged: the message says which)",
               "rules": {}}
    for path in sorted(files):
        tree = ET.parse(path)
        root = tree.getroot()
        for properties in root.findall('properties'):
            root.remove(properties)
        tree.write(os.path.join(out, 'junit', os.path.basename(path).replace('TEST-dev.fakbattery.conformance.', '')),
                   encoding='utf-8', xml_declaration=True)
        seen = {}
        for case in root.iter('testcase'):
            rule = case.get('name').split('_')[1]
            index = seen.get(rule, 0)
            seen[rule] = index + 1
            failure, skipped = case.find('failure'), case.find('skipped')
            outcome = 'FAIL' if failure is not None else 'ABORTED' if skipped is not None else 'PASS'
            message = failure.get('message') if failure is not None else skipped.get('message') if skipped is not None else None
            named = re.match(r'^\w+ \[([a-z]+ [a-z-]+)\]', message or '')
            target = named.group(1) if named else ORDER[index] if index < len(ORDER) else str(index)
            entry = {"outcome": outcome}
            if message:
                entry["message"] = re.sub(r' on gateway\.cmd \[[^\]]*\] \(log [^)]*\)', '', message)[:400]
            reading["rules"].setdefault(rule, {})[target] = entry
    with open(os.path.join(out, 'kit-outcomes.json'), 'w') as f:
        json.dump(reading, f, indent=2)
        f.write('\n')


if __name__ == '__main__':
    if len(sys.argv) < 8:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7:])
