package dev.fakbattery.conformance.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.fakbattery.core.process.ManagedProcess;
import dev.fakbattery.engine.hop.RelayHop;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The standalone kit against a relay that does not adjudicate (a bare hop in front of the kit's upstream, passing
 * everything on): what it keeps passes, the deny rule fails, and the exit code follows the classes the gateway claims.
 */
@Isolated // OutcomeSummary's last counts are the kit's one launch at a time
@DisplayName("standalone kit: a relay that does not adjudicate, judged by the classes it claims")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class ClaimedClassesStandaloneTests {

	private static final Path REPORTS = Path.of("target", "claimed-classes");

	@Test
	@DisplayName("claiming relay,resilience: exit 0; W03 still runs, reported NOT_CLAIMED with its failure, counted under adjudication not claimed")
	void relayClaimPasses() throws IOException {
		Run run = kit("relay-claim", "--classes", "relay,resilience");

		assertThat(run.exit()).as(run.output()).isZero();
		assertThat(run.output()).contains("NOT_CLAIMED: W03 is of the adjudication class, which the gateway does not claim "
				+ "(gateway.classes=relay,resilience), so this failure fails nothing: W03 [vllm non-stream]")
				.contains("kit classes (claimed: relay,resilience): relay 2/2 rules passed, adjudication not claimed (0/1 passed)")
				.contains(" 2 failed unclaimed");
		assertThat(run.xml()).contains("NOT_CLAIMED: W03").containsPattern("failures=\"0\"");
	}

	@Test
	@DisplayName("the same relay claiming adjudication: exit 1, W03 a failure; the relay rules, not claimed, passed")
	void adjudicationClaimFails() throws IOException {
		Run run = kit("adjudication-claim", "--classes", "adjudication");

		assertThat(run.exit()).as(run.output()).isEqualTo(1);
		assertThat(run.output()).doesNotContain("NOT_CLAIMED")
				.contains("kit classes (claimed: adjudication): relay not claimed (2/2 passed), adjudication 0/1 rules passed (1 failed)");
		assertThat(run.xml()).contains("failures=\"2\"", "W03 [vllm stream]");
	}

	@Test
	@DisplayName("claiming every class (the default): exit 1, as before classes")
	void defaultClaimsEveryClass() throws IOException {
		Run run = kit("default-claim");

		assertThat(run.exit()).as(run.output()).isEqualTo(1);
		assertThat(run.output()).contains("kit classes (claimed: relay,adjudication,record,resilience,clients): relay 2/2 rules passed, "
				+ "adjudication 0/1 rules passed (1 failed)");
	}

	@Test
	@DisplayName("an unknown class is a usage error (exit 2) naming the flag, the value and the classes, and runs nothing")
	void unknownClassIsUsage() {
		StringWriter err = new StringWriter();
		int exit = StandaloneKit.run(new String[]{ "--gateway-url", "http://127.0.0.1:1/v1", "--classes", "relay,adjudicaton" },
				new PrintWriter(new StringWriter()), new PrintWriter(err, true));

		assertThat(exit).isEqualTo(StandaloneKit.USAGE);
		assertThat(err.toString()).contains("--classes: adjudicaton is not a conformance class",
				"relay, adjudication, record, resilience, clients (or all)");
		StringWriter config = new StringWriter();
		assertThat(StandaloneKit.run(new String[]{ "--gateway-url", "http://127.0.0.1:1/v1", "--config", "gateway.classes=wire" },
				new PrintWriter(new StringWriter()), new PrintWriter(config, true))).isEqualTo(StandaloneKit.USAGE);
		assertThat(config.toString()).contains("gateway.classes: wire is not a conformance class");
	}

	/** W01, W15 (relay) and W03 (adjudication) through a bare relay hop, vLLM, both modes. */
	private static Run kit(String name, String... claim) throws IOException {
		int upstreamPort = ManagedProcess.freePort();
		Path reports = REPORTS.resolve(name);
		try (RelayHop relay = new RelayHop(URI.create("http://127.0.0.1:" + upstreamPort + "/v1"))) {
			String[] base = { "--gateway-url", relay.url().toString(), "--engine", "vllm", "--upstream-port", String.valueOf(upstreamPort),
				"--reports-dir", reports.toString(), "--only", "W01,W03,W15" };
			String[] args = java.util.stream.Stream.concat(java.util.Arrays.stream(base), java.util.Arrays.stream(claim))
					.toArray(String[]::new);
			StringWriter out = new StringWriter();
			int exit = StandaloneKit.run(args, new PrintWriter(out, true), new PrintWriter(out, true));
			return new Run(exit, out.toString(), Files.readString(reports.resolve("TEST-junit-jupiter.xml")));
		}
	}

	private record Run(int exit, String output, String xml) {
	}
}
