package dev.fakbattery.conformance.rules;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * Whether a rule index and the test methods of a verification class agree: every test method is named
 * {@code KIND_ID_what} after one rule of the index, of that rule's kind, displayed as the rule's display name; every rule
 * has exactly one test method.
 */
final class RuleIndex {

	private static final Pattern NAME = Pattern.compile("^(required|optional|stochastic)_([A-Z]\\d\\d)_[A-Za-z0-9]+$");

	private RuleIndex() {
	}

	/** What disagrees between {@code index} and the test methods of {@code verification} and its superclasses; empty when they agree. */
	static List<String> problems(List<? extends KitRule> index, Class<?> verification) {
		List<String> problems = new ArrayList<>();
		Map<String, KitRule> rules = new TreeMap<>();
		index.forEach(rule -> rules.put(rule.id(), rule));
		Map<String, List<String>> methods = new TreeMap<>();
		for (Method method : testMethods(verification)) {
			String where = method.getDeclaringClass().getSimpleName() + "." + method.getName();
			Matcher name = NAME.matcher(method.getName());
			if (!name.matches()) {
				problems.add(where + ": a test method not named KIND_ID_what after a rule of the index");
				continue;
			}
			String id = name.group(2);
			methods.computeIfAbsent(id, k -> new ArrayList<>()).add(where);
			KitRule rule = rules.get(id);
			if (rule == null) {
				problems.add(where + ": " + id + " is not in the index " + index.get(0).getClass().getSimpleName());
				continue;
			}
			if (!method.getName().startsWith(rule.kind().prefix())) {
				problems.add(where + ": the index says " + id + " is " + rule.kind() + ", the method begins " + name.group(1) + "_");
			}
			String displayed = Optional.ofNullable(method.getAnnotation(DisplayName.class))
					.map(DisplayName::value)
					.orElse("<no @DisplayName>");
			if (!displayed.equals(rule.displayName())) {
				problems.add(where + ": @DisplayName \"" + displayed + "\", the index says \"" + rule.displayName() + "\"");
			}
		}
		for (KitRule rule : index) {
			List<String> found = methods.getOrDefault(rule.id(), List.of());
			if (found.size() != 1) {
				problems.add(rule.id() + ": " + found.size() + " test methods in " + verification.getSimpleName() + " " + found
						+ ", one expected");
			}
			if (rule.must().isBlank() || rule.skippedWhen().isBlank() || rule.ifItFails().isBlank()
					|| !List.of("both", "stream").contains(rule.modes())) {
				problems.add(
						rule.id() + ": an index entry without its MUST, skip condition or check, or with modes [" + rule.modes() + "]");
			}
		}
		return problems;
	}

	private static List<Method> testMethods(Class<?> verification) {
		List<Method> methods = new ArrayList<>();
		for (Class<?> type = verification; type != null && type != Object.class; type = type.getSuperclass()) {
			for (Method method : type.getDeclaredMethods()) {
				if (method.isAnnotationPresent(ParameterizedTest.class) || method.isAnnotationPresent(Test.class)) {
					methods.add(method);
				}
			}
		}
		return methods;
	}

	/**
	 * The rules of {@code index} without a conformance class, and the captured rules of another class than the wire rule
	 * they judge on captures (a captured rule's display name ends in {@code (captured)}); empty when every rule has its one.
	 */
	static List<String> classProblems(List<? extends KitRule> index) {
		List<String> problems = new java.util.ArrayList<>();
		for (KitRule rule : index) {
			if (rule.conformanceClass() == null) {
				problems.add(rule.id() + " has no conformance class");
			}
			else if (rule.displayName().endsWith("(captured)")) {
				WireRule wire = WireRule.valueOf(rule.id());
				if (wire.conformanceClass() != rule.conformanceClass()) {
					problems.add(rule.id() + " (captured) is of the " + rule.conformanceClass().id() + " class, its wire rule " + wire.id()
							+ " of " + wire.conformanceClass().id());
				}
			}
		}
		return problems;
	}
}
