package dev.fakbattery.api;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ArtifactDocument;
import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.RunSecrets;
import dev.fakbattery.core.RungOutcome;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.Verdict;

import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Writes each rung test's artifact atomically into {@code experiments.dir}, with its computed verdict, run,
 * target and provenance, and attaches it to the report. Validators of the written artifact run first; a body
 * that sets a harness field, or a failed write, fails the test.
 */
class ArtifactExtension implements AfterTestExecutionCallback {

	@Override
	public void afterTestExecution(ExtensionContext context) {
		RungRecorder run = RungRecorderExtension.runOf(context).orElse(null);
		if (run == null) {
			return;
		}
		ObjectNode draft = ArtifactDocument.draft(run);
		run.validate(draft.deepCopy());
		Optional<Throwable> thrown = context.getExecutionException();
		Verdict verdict = RungOutcome.verdict(run, thrown);
		ObjectNode document = ArtifactDocument.build(run, draft, verdict, thrown);
		Path target = run.config().experimentsDir().resolve(run.artifact().fileName());
		ArtifactFiles.writeJson(target, document, RunSecrets.forRun(run.config()));
		RungReport.publish(context, run, verdict, document, target, run.attachments().stream().filter(Files::isRegularFile).toList());
		context.publishReportEntry("artifact", target + " (" + verdict + ")");
	}
}
