package dev.fakbattery.conformance.wire;

import static dev.fakbattery.conformance.rules.RuleOutcome.FAIL;
import static dev.fakbattery.conformance.rules.RuleOutcome.NOT_JUDGED;
import static dev.fakbattery.conformance.rules.RuleOutcome.PASS;
import static dev.fakbattery.conformance.rules.RuleOutcome.PENDING_MEASUREMENT;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.api.GuardedResultsWriter;
import dev.fakbattery.api.NestedReport;
import dev.fakbattery.api.WireRuleReport;
import dev.fakbattery.api.WireRung;
import dev.fakbattery.conformance.rules.ClassResults;
import dev.fakbattery.conformance.rules.ConformanceClass;
import dev.fakbattery.conformance.rules.RuleOutcome;
import dev.fakbattery.conformance.wire.KitLaunch.RuleRun;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.Profile;
import dev.fakbattery.core.RungArtifact;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.gateway.GatewayLauncher;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import io.qameta.allure.AllureLifecycle;

/**
 * Wire conformance rung: runs every rule of {@link GatewayUnderTestWireTests}, the client rules of
 * {@link GatewayUnderTestClientTests} (C01 always, C02..C04 where {@code node} runs them: {@code kit.node.clients}) and,
 * with {@code wire.captures}, the rules of {@link CapturedWireTests}, with the rung's own configuration, and records
 * each rule and target as an acceptance check of the artifact ({@code rules}, {@code client_rules},
 * {@code captured_rules}), the captures replayed beside them. Where the battery report shows each wire and client
 * rule run ({@link #reportsRuleRuns}), they are this run's: the kit classes do not run a second time for the report.
 * On the embedded reference gateway the
 * result says nothing about an operator's gateway, so it is SIMULATED (and pending under -Pgpu,
 * where a gateway must be named). Runs beside other classes: the kit it runs is isolated within its own run, W14
 * judges only paced streams the kit's upstream kept pace in, and W26 waits out a 5 s pause.
 */
@WireRung
@RungArtifact(ArtifactId.WIRE_CONFORMANCE)
@DisplayName("wire conformance")
class WireRungTests {

	@Test
	@DisplayName("runs the wire conformance rules against the gateway under test")
	void wireConformance(RungRecorder run) {
		HarnessConfig config = run.config();
		boolean embedded = config.string(HarnessConstants.GATEWAY_URL).isEmpty() && config.string(HarnessConstants.GATEWAY_CMD).isEmpty();
		if (embedded && !config.profile().embeddedTargetAllowed()) {
			run.pending(HarnessConstants.GATEWAY_CMD, "no gateway under test is named (the embedded reference gateway proves only the kit)",
					"set -Dgateway.cmd=\"... {port} {upstream} {model}\" or -Dgateway.url=http://HOST:PORT/v1");
			return;
		}
		KitLaunch.Runs tests = wireRules(run, GatewayUnderTestWireTests.class);
		Optional<Path> capturesDir = KitRun.capturesDir(config);
		if (capturesDir.isPresent()) {
			KitLaunch.Runs captured = run(CapturedWireTests.class, config);
			record(run, captured, "captured_rules", "captured rule runs");
			run.body().put("captures_summary", run.body().path("captured_rules_summary").asText());
			describe(Capture.load(capturesDir.get()), run.body().put("captures_dir", capturesDir.get().toString()).putArray("captures"));
			run.measured("captured_rule_runs_passed", captured.count(PASS), "rule runs", "launcher run of the captured-wire rules");
			run.measured("captured_rule_runs_failed", captured.count(FAIL), "rule runs", "launcher run of the captured-wire rules");
		}
		KitLaunch.Runs clients = clientRules(run, GatewayUnderTestClientTests.class);
		classes(run, List.of(tests, clients));
		long failed = tests.count(FAIL);
		run.measured("rule_runs_passed", tests.count(PASS), "rule runs", "launcher run of the wire rules");
		run.measured("rule_runs_failed", failed, "rule runs", "launcher run of the wire rules");
		run.body()
				.put("gateway", embedded
						? "embedded reference gateway"
						: config.string(HarnessConstants.GATEWAY_URL)
								.map(u -> "gateway.url " + u)
								.orElse("gateway.cmd " + config.string(HarnessConstants.GATEWAY_CMD).orElse("")));
		run.body()
				.put("upstream", "the kit's upstream replaying fixtures/wire (recorded and reconstructed vLLM and SGLang wire)"
						+ (capturesDir.isPresent() ? "; for captured_rules, the engines' own answers under captures_dir" : ""));
		if (embedded) {
			run.simulated("the system under test is the embedded reference gateway on recorded wires, not an operator's gateway");
		}
		run.headline(run.body().path("rules_summary").asText() + " (" + run.body().path("gateway").asText() + ")"
				+ "; " + run.body().path("client_rules_summary").asText() + "; classes: " + run.body().path("classes_summary").asText()
				+ (run.body().has("captures_summary") ? "; " + run.body().path("captures_summary").asText() : ""));
	}

	/**
	 * The result per conformance class of {@code runs} (the wire and the client rules) into the artifact's
	 * {@code classes} (per class: claimed, then its rules passed, failed, pending, not judged, not applicable) and a line
	 * into {@code classes_summary}: the rung claims every class ({@link #run}), the battery's gateway adjudicates.
	 */
	static ClassResults classes(RungRecorder run, List<KitLaunch.Runs> runs) {
		ClassResults classes = new ClassResults(EnumSet.allOf(ConformanceClass.class));
		runs.forEach(r -> r.rules().forEach(test -> classes.add(test.rule().split(" ")[0], test.outcome())));
		classes.writeTo(run.body().putObject("classes"));
		run.body().put("classes_summary", classes.line());
		return classes;
	}

	/**
	 * The client rules (C01..C04) of {@code kit} run with the rung's configuration and recorded as {@code client_rules},
	 * each run that applied a check of the artifact: C01 (LangChain4j, in the JVM) always; C02..C04 where {@code node}
	 * and the installed clients are there ({@code kit.node.clients}), else skipped with the reason
	 * ({@code kit.node.clients=required} fails them instead).
	 */
	static KitLaunch.Runs clientRules(RungRecorder run, Class<? extends ClientVerification> kit) {
		KitLaunch.Runs clients = run(kit, run.config());
		record(run, clients, "client_rules", "client rule runs");
		run.measured("client_rule_runs_passed", clients.count(PASS), "rule runs", "launcher run of the client rules");
		run.measured("client_rule_runs_failed", clients.count(FAIL), "rule runs", "launcher run of the client rules");
		return clients;
	}

	/**
	 * The wire rules of {@code kit} run with the rung's configuration and recorded as {@code rules}, each run that
	 * applied a check of the artifact; a kit that ran no rule at all (its gateway did not start) fails the rung with
	 * the reason, as the fault rung does.
	 */
	static KitLaunch.Runs wireRules(RungRecorder run, Class<? extends WireVerification> kit) {
		KitLaunch.Runs tests = run(kit, run.config());
		record(run, tests, "rules", "rule runs");
		if (tests.rules().isEmpty()) {
			run.check("wire_rules_ran", false, "the wire rules run against " + GatewayLauncher.describe(run.config()),
					"no rule ran: " + tests.containerFailures());
		}
		return tests;
	}

	/**
	 * Each finished rule run of {@code runs} into the array {@code field} (rule, target, status, outcome, detail), the
	 * count of each outcome into {@code <field>_outcomes} and a line into {@code <field>_summary}. Every run that passed
	 * or failed is a check of the artifact; the runs not judged (no evidence) and the pending ones (the kit's instrument
	 * could not judge, a client is missing) are one pending measurement each, naming them and why, so the rung cannot
	 * pass on them; the not applicable ones are listed only.
	 */
	private static void record(RungRecorder run, KitLaunch.Runs runs, String field, String what) {
		ArrayNode rules = run.body().putArray(field);
		Map<RuleOutcome, List<String>> apart = new EnumMap<>(RuleOutcome.class);
		for (RuleRun test : runs.rules()) {
			String rule = test.rule();
			String label = rule.split(" ")[0] + " [" + test.target() + "]";
			RuleOutcome outcome = test.outcome();
			rules.addObject()
					.put("rule", rule)
					.put("target", test.target())
					.put("status", test.status().name())
					.put("outcome", outcome.name())
					.put("detail", test.detail());
			switch (outcome) {
				case PASS, FAIL -> run.check(label, outcome == PASS, rule, outcome == PASS ? "kept" : test.detail());
				// the rung claims every class: a failure outside a claim is still a failure of the rung
				case NOT_CLAIMED -> run.check(label, false, rule, test.detail());
				case NOT_JUDGED, PENDING_MEASUREMENT ->
					apart.computeIfAbsent(outcome, o -> new ArrayList<>()).add(label + ": " + test.detail());
				case NOT_APPLICABLE -> {
					// listed in the array only: the rule does not concern this target
				}
			}
		}
		ObjectNode counts = run.body().putObject(field + "_outcomes");
		for (RuleOutcome outcome : RuleOutcome.values()) {
			counts.put(outcome.name(), runs.count(outcome));
		}
		run.body().put(field + "_summary", summary(runs, what));
		List<String> notJudged = apart.getOrDefault(NOT_JUDGED, List.of());
		if (!notJudged.isEmpty()) {
			run.pending(field + "_not_judged", notJudged.size() + " " + what + " saw none of the evidence their rule needs (nothing "
					+ "reached the kit's upstream, or nothing was delivered), so they say nothing of the gateway: " + firstFew(notJudged),
					"make the gateway reach the kit's upstream (its routing headers, its upstream URL) and deliver its answers, then rerun");
		}
		List<String> pending = apart.getOrDefault(PENDING_MEASUREMENT, List.of());
		if (!pending.isEmpty()) {
			run.pending(field + "_pending", pending.size() + " " + what + " could not be judged by the kit's instrument, or miss what "
					+ "they need: " + firstFew(pending), "what each names (a quieter machine for W14, node and the clients for C02..C04)");
		}
	}

	private static String firstFew(List<String> lines) {
		return String.join("; ", lines.stream().limit(6).toList()) + (lines.size() > 6 ? "; and " + (lines.size() - 6) + " more" : "");
	}

	/** {@code 102 rule runs passed, 0 failed, 0 not judged, 0 pending, 10 not applicable}. */
	static String summary(KitLaunch.Runs runs, String what) {
		StringBuilder line = new StringBuilder();
		for (RuleOutcome outcome : RuleOutcome.values()) {
			if (outcome == RuleOutcome.NOT_CLAIMED && runs.count(outcome) == 0) {
				continue;
			}
			line.append(line.isEmpty() ? runs.count(outcome) + " " + what + " " : ", " + runs.count(outcome) + " ").append(outcome.words());
		}
		return line.toString();
	}

	/** What was replayed: each capture's id, engine, modes, tools and provenance. */
	private static void describe(List<Capture> captures, ArrayNode out) {
		for (Capture capture : captures) {
			ObjectNode entry = out.addObject().put("id", capture.id()).put("engine", capture.engine().id());
			ArrayNode modes = entry.putArray("modes");
			capture.json()
					.ifPresent(json -> modes
							.add("non-stream" + (capture.isError(false) ? " (error, HTTP " + capture.status(false) + ")" : "")));
			capture.sse()
					.ifPresent(sse -> modes.add(capture.isError(true)
							? "stream (error, HTTP " + capture.status(true) + ")"
							: capture.completeStream() ? "stream" : "stream (incomplete, not judged)"));
			ArrayNode tools = entry.putArray("tools");
			capture.tools().forEach(tools::add);
			ArrayNode variants = entry.putArray("variants");
			capture.variants().forEach(variants::add);
			entry.set("provenance", capture.provenance());
		}
	}

	/**
	 * The kit class run with {@code config}'s values, claiming every conformance class (the battery's gateway
	 * adjudicates: {@code gateway.classes} does not narrow the battery's verdict); its rule runs. Where this rung is in the report itself, the class
	 * is one whose rule runs the report shows ({@link WireRuleReport}) and they belong there (a measuring profile, or a
	 * gateway named: {@link #reportsRuleRuns}), each rule run is an entry of the report too, from this same run: the
	 * kit classes are not run a second time for it.
	 */
	static KitLaunch.Runs run(Class<?> kit, HarnessConfig config) {
		Optional<AllureLifecycle> report = kit.isAnnotationPresent(WireRuleReport.class) && reportsRuleRuns(config)
				&& NestedReport.reports(WireRungTests.class)
						? Optional.of(GuardedResultsWriter.lifecycle())
						: Optional.empty();
		Map<String, String> parameters = new HashMap<>(KitRun.parameters(config));
		parameters.put(HarnessConstants.GATEWAY_CLASSES, ConformanceClass.ALL);
		return KitLaunch.run(kit, parameters, report);
	}

	/**
	 * Whether the battery report shows each rule run: under the measuring profiles and whenever {@code gateway.url} or
	 * {@code gateway.cmd} names a gateway; not for the embedded reference gateway in a plain {@code ./mvnw verify}.
	 */
	static boolean reportsRuleRuns(HarnessConfig config) {
		return config.profile() != Profile.DEFAULT || config.string(HarnessConstants.GATEWAY_URL).isPresent()
				|| config.string(HarnessConstants.GATEWAY_CMD).isPresent();
	}

}
