package dev.fakbattery.bench.floors;

import static dev.fakbattery.bench.support.JsonValues.show;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.bench.support.JsonValues;
import dev.fakbattery.core.Check;

/** Builders of one floor check over one JSON field: {@code <floor>.<rule>}, expected and observed. */
final class Rule {

	private final String prefix;

	Rule(FloorArtifact floor) {
		this.prefix = floor.checkId() + ".";
	}

	/** The field is exactly the string {@code expected}. */
	Check text(String rule, String label, JsonNode node, String expected) {
		return check(rule, expected.equals(node.textValue()), label + " \"" + expected + "\"", label + " " + show(node));
	}

	/** The field is a number equal to {@code expected}. */
	Check number(String rule, String label, JsonNode node, long expected) {
		return check(rule, JsonValues.numberEquals(node, expected), label + " " + expected, label + " " + show(node));
	}

	/** The field is a number, any value. */
	Check recorded(String rule, String label, JsonNode node) {
		return check(rule, node.isNumber(), label + " recorded as a number", label + " " + show(node));
	}

	Check check(String rule, boolean passed, String expected, String observed) {
		return new Check(prefix + rule, passed, expected, observed);
	}
}
