package dev.fakbattery.conformance.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.fakbattery.conformance.fault.FaultVerification;
import dev.fakbattery.conformance.wire.CapturedWireVerification;
import dev.fakbattery.conformance.wire.ClientVerification;
import dev.fakbattery.conformance.wire.WireVerification;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.opentest4j.AssertionFailedError;

/**
 * One rule index: the enums ({@link WireRule}, {@link FaultRule}, {@link CapturedWireRule}, {@link ClientRule}), the
 * verification classes'
 * test methods and RULES.md's tables agree, and the check fails when they do not.
 */
@DisplayName("rule index: the enums, the test methods and RULES.md agree")
class RuleIndexTests {

	/** How to rewrite RULES.md's tables from the index. */
	static final String REGENERATE = "./mvnw -pl conformance-tests -am test -Dtest=RuleIndexTests -Dsurefire.failIfNoSpecifiedTests=false -Drules.md.write=true";

	@Test
	@DisplayName("every wire rule has its one test method in WireVerification, named and displayed by the index")
	void wireRules() {
		assertThat(RuleIndex.problems(List.of(WireRule.values()), WireVerification.class)).isEmpty();
	}

	@Test
	@DisplayName("every fault rule has its one test method in FaultVerification, named and displayed by the index")
	void faultRules() {
		assertThat(RuleIndex.problems(List.of(FaultRule.values()), FaultVerification.class)).isEmpty();
	}

	@Test
	@DisplayName("every captured-wire rule has its one test method in CapturedWireVerification, and is one of the wire rules")
	void capturedRules() {
		assertThat(RuleIndex.problems(List.of(CapturedWireRule.values()), CapturedWireVerification.class)).isEmpty();
		for (CapturedWireRule rule : CapturedWireRule.values()) {
			assertThat(rule.rule().id()).as("the wire rule %s judges", rule).isEqualTo(rule.id());
		}
	}

	@Test
	@DisplayName("every client rule has its one test method in ClientVerification, named and displayed by the index")
	void clientRules() {
		assertThat(RuleIndex.problems(List.of(ClientRule.values()), ClientVerification.class)).isEmpty();
	}

	@Test
	@DisplayName("every rule has one conformance class: the verdicts on calls are adjudication, W17/W18 the record, F the resilience, C the clients, the rest relay")
	void everyRuleHasOneClass() {
		assertThat(RuleIndex.classProblems(KitRules.all())).isEmpty();
		assertThat(RuleIndex.classProblems(List.of(CapturedWireRule.values()))).isEmpty();
		assertThat(ids(ConformanceClass.ADJUDICATION)).containsExactly("W03", "W04", "W06", "W07", "W12", "W13", "W23");
		assertThat(ids(ConformanceClass.RECORD)).containsExactly("W17", "W18");
		assertThat(ids(ConformanceClass.RESILIENCE)).containsExactly("F01", "F02", "F03", "F04", "F05", "F06", "F07");
		assertThat(ids(ConformanceClass.CLIENTS)).containsExactly("C01", "C02", "C03", "C04");
		assertThat(ids(ConformanceClass.RELAY)).contains("W01", "W02", "W09", "W11", "W14", "W16", "W20", "W24", "W27", "W28")
				.allMatch(id -> id.startsWith("W"));
		assertThat(KitRules.all()).hasSize(WireRule.values().length + FaultRule.values().length + ClientRule.values().length);
	}

	@Test
	@DisplayName("self-test: a rule without a class, or a captured rule of another class than its wire rule, is named")
	void brokenClassesFail() {
		KitRule classless = new KitRule() {
			@Override
			public String name() {
				return "X09";
			}

			@Override
			public Text text() {
				return new Text(Kind.REQUIRED, "nine", "a MUST", "both", "never", "this");
			}

			@Override
			public ConformanceClass conformanceClass() {
				return null;
			}
		};
		assertThat(RuleIndex.classProblems(List.of(classless, WireRule.W01))).containsExactly("X09 has no conformance class");
		assertThat(RuleIndex.classProblems(List.of(CapturedWireRule.W02, new CapturedOfOtherClass())))
				.containsExactly("W13 (captured) is of the relay class, its wire rule W13 of adjudication");
	}

	private static List<String> ids(ConformanceClass of) {
		return KitRules.all().stream().filter(r -> r.conformanceClass() == of).map(KitRule::id).toList();
	}

	/** A captured rule that disagrees with its wire rule's class. */
	static final class CapturedOfOtherClass implements KitRule {

		@Override
		public String name() {
			return "W13";
		}

		@Override
		public Text text() {
			return CapturedWireRule.W13.text();
		}

		@Override
		public String displayName() {
			return CapturedWireRule.W13.displayName();
		}

		@Override
		public ConformanceClass conformanceClass() {
			return ConformanceClass.RELAY;
		}
	}

	@Test
	@DisplayName("RULES.md's rule tables are the index's (-Drules.md.write=true rewrites them)")
	void rulesMarkdown() throws IOException {
		Path file = Path.of("RULES.md");
		String committed = Files.readString(file);
		String generated = RulesMarkdown.render(committed);
		if (Boolean.getBoolean("rules.md.write") && !generated.equals(committed)) {
			Files.writeString(file, generated);
		}
		else {
			requireSame(committed, generated);
		}
	}

	@Test
	@DisplayName("self-test: an index that misses a rule, of another kind, with another display name or without a method fails")
	void brokenIndexFails() {
		List<KitRule> missing = new ArrayList<>(List.of(WireRule.values()));
		missing.remove(WireRule.W14);
		assertThat(RuleIndex.problems(missing, WireVerification.class))
				.containsExactly("WireVerification.stochastic_W14_notBuffered: W14 is not in the index WireRule");
		assertThat(RuleIndex.problems(List.of(Broken.values()), BrokenVerification.class)).containsExactlyInAnyOrder(
				"BrokenVerification.required_X01_one: @DisplayName \"X01 one\", the index says \"X01 the first\"",
				"BrokenVerification.required_X02_two: the index says X02 is OPTIONAL, the method begins required_",
				"BrokenVerification.stray: a test method not named KIND_ID_what after a rule of the index",
				"X03: 0 test methods in BrokenVerification [], one expected",
				"X03: an index entry without its MUST, skip condition or check, or with modes [sometimes]");
	}

	@Test
	@DisplayName("self-test: a RULES.md whose table differs from the index fails with the difference and the command that regenerates it")
	void brokenMarkdownFails() throws IOException {
		String committed = Files.readString(Path.of("RULES.md"));
		String tampered = committed.replace("| W15 | relay | `X-Request-Id` from the client reaches the upstream unchanged.",
				"| W15 | relay | `X-Request-Id` from the client may reach the upstream.");
		assertThat(tampered).as("the tampering must change RULES.md").isNotEqualTo(committed);

		assertThatThrownBy(() -> requireSame(tampered, RulesMarkdown.render(tampered))).isInstanceOf(AssertionFailedError.class)
				.hasMessageContaining("may reach the upstream")
				.hasMessageContaining(REGENERATE);
		assertThatThrownBy(() -> RulesMarkdown.render(committed.replace("<!-- rules:fault -->", "")))
				.hasMessageContaining("<!-- rules:fault -->");
		String reclassed = committed.replace("| W15 | relay |", "| W15 | adjudication |");
		assertThat(reclassed).as("the tampering must change RULES.md").isNotEqualTo(committed);
		assertThatThrownBy(() -> requireSame(reclassed, RulesMarkdown.render(reclassed))).hasMessageContaining("| W15 | adjudication |");
	}

	/** Fails naming the first differing line of RULES.md and the command that regenerates it. */
	private static void requireSame(String committed, String generated) {
		if (committed.equals(generated)) {
			return;
		}
		String[] was = committed.split("\n", -1);
		String[] is = generated.split("\n", -1);
		int line = 0;
		while (line < Math.min(was.length, is.length) && was[line].equals(is[line])) {
			line++;
		}
		throw new AssertionFailedError("RULES.md differs from the rule index at line " + (line + 1) + ":\n- "
				+ (line < was.length ? was[line] : "<end>") + "\n+ " + (line < is.length ? is[line] : "<end>")
				+ "\nregenerate it: " + REGENERATE, generated, committed);
	}

	/** A deliberately wrong index. */
	enum Broken implements KitRule {
		X01(Kind.REQUIRED, "the first", "both"), X02(Kind.OPTIONAL, "two", "both"), X03(Kind.REQUIRED, "three", "sometimes");

		private final Text text;

		Broken(Kind kind, String title, String modes) {
			this.text = new Text(kind, title, "a MUST", modes, "never", "this");
		}

		@Override
		public Text text() {
			return text;
		}

		@Override
		public ConformanceClass conformanceClass() {
			return ConformanceClass.RELAY;
		}
	}

	/** Test methods that disagree with {@link Broken}; never run. */
	abstract static class BrokenVerification {

		@ParameterizedTest
		@DisplayName("X01 one")
		void required_X01_one(String mode) {
		}

		@ParameterizedTest
		@DisplayName("X02 two")
		void required_X02_two(String mode) {
		}

		@Test
		void stray() {
		}
	}

	@Test
	@DisplayName("a marked table at the very start of the file is rendered too, and an end marker before its begin is refused")
	void markersAnywhere() {
		StringBuilder markdown = new StringBuilder();
		for (String name : RulesMarkdown.TABLES.keySet()
				.stream()
				.sorted((a, b) -> a.equals("wire") ? -1 : b.equals("wire") ? 1 : a.compareTo(b))
				.toList()) {
			markdown.append("<!-- rules:").append(name).append(" -->\nSTALE-TABLE-ROW\n<!-- /rules:").append(name).append(" -->\n\n");
		}
		String rendered = RulesMarkdown.render(markdown.toString());
		assertThat(rendered).startsWith("<!-- rules:wire -->\n|").doesNotContain("STALE-TABLE-ROW");
		String swapped = "<!-- /rules:wire -->\n" + markdown.toString().replace("<!-- /rules:wire -->", "");
		assertThatThrownBy(() -> RulesMarkdown.render(swapped)).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("around the wire table");
	}
}
