package dev.fakbattery.bench.canary;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;

import dev.fakbattery.report.gate.FinalGateMain;

import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/**
 * The child JVM of {@link CanaryLeakTests}: a smoke battery. Runs the named rung test classes with the JUnit Platform
 * launcher (Allure results, artifacts and gateway logs go where the system properties say), then the final gate's
 * {@code write} (final-check.json, FINAL-CHECK.md) and {@code enforce} (the summary table, printed). Exits 0 whatever
 * the rungs' verdicts: what it wrote is what the parent scans.
 *
 * <pre>CanaryBatteryMain EXPERIMENTS_DIR RESULTS_DIR ROOT_DIR CLASS...</pre>
 */
public final class CanaryBatteryMain {

	private CanaryBatteryMain() {
	}

	public static void main(String[] args) throws Exception {
		List<org.junit.platform.engine.DiscoverySelector> selectors = new ArrayList<>();
		for (int i = 3; i < args.length; i++) {
			selectors.add(selectClass(Class.forName(args[i])));
		}
		LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(selectors).build();
		SummaryGeneratingListener summary = new SummaryGeneratingListener();
		LauncherFactory.create().execute(request, summary);
		summary.getSummary().printTo(new java.io.PrintWriter(System.out, true));
		summary.getSummary().printFailuresTo(new java.io.PrintWriter(System.out, true), 20);
		String experiments = "--experiments-dir=" + args[0];
		FinalGateMain.run(
				new String[]{ "write", experiments, "--results-dir=" + args[1],
					"--profile=" + System.getProperty("harness.profile", "battery"), "--root-dir=" + args[2] },
				System.out);
		try {
			FinalGateMain.run(new String[]{ "enforce", experiments, "--allow-pending=true", "--root-dir=" + args[2] }, System.out);
		}
		catch (RuntimeException gate) {
			System.out.println("final gate: " + gate.getMessage());
		}
		System.out.flush();
		System.exit(0);
	}
}
