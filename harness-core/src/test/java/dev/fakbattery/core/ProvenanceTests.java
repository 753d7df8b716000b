package dev.fakbattery.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import dev.fakbattery.core.target.TargetIdentity;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("Provenance: the git commit of a clone and of a worktree, never guessed")
class ProvenanceTests {

	@TempDir
	Path root;

	@Test
	@DisplayName("a worktree's .git file names its git dir; the branch's ref is in the common dir")
	void worktree() {
		ArtifactFiles.writeString(root.resolve("main/.git/worktrees/wt/HEAD"), "ref: refs/heads/helper/report\n");
		ArtifactFiles.writeString(root.resolve("main/.git/worktrees/wt/commondir"), "../..\n");
		ArtifactFiles.writeString(root.resolve("main/.git/refs/heads/helper/report"), "c1f4b18aa\n");
		ArtifactFiles.writeString(root.resolve("wt/.git"), "gitdir: " + root.resolve("main/.git/worktrees/wt") + "\n");
		assertThat(Provenance.gitCommit(root.resolve("wt"))).hasValue("c1f4b18aa");
	}

	@Test
	@DisplayName("a clone's packed ref; nothing when there is no git checkout")
	void packedAndNone() {
		ArtifactFiles.writeString(root.resolve("clone/.git/HEAD"), "ref: refs/heads/main\n");
		ArtifactFiles.writeString(root.resolve("clone/.git/packed-refs"), "# pack-refs\n8d005c5 refs/heads/main\n");
		assertThat(Provenance.gitCommit(root.resolve("clone"))).hasValue("8d005c5");
		assertThat(Provenance.gitCommit(root.resolve("nothing"))).isEmpty();
	}

	@Test
	@DisplayName("git_dirty: false on a clean checkout, true with a change, null outside a checkout; in every artifact's provenance")
	void gitDirty() throws Exception {
		org.junit.jupiter.api.Assumptions.assumeTrue(git(root, "--version") == 0, "git is not installed");
		Path clean = root.resolve("clean");
		Path dirty = root.resolve("dirty");
		for (Path repo : java.util.List.of(clean, dirty)) {
			ArtifactFiles.writeString(repo.resolve("a.txt"), "a\n");
			assertThat(git(repo, "init", "-q")).isZero();
			assertThat(git(repo, "add", "a.txt")).isZero();
			assertThat(git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "a")).isZero();
		}
		ArtifactFiles.writeString(dirty.resolve("a.txt"), "changed\n");
		assertThat(Provenance.gitDirty(clean)).hasValue(false);
		assertThat(Provenance.gitDirty(dirty)).hasValue(true);
		assertThat(Provenance.gitDirty(root.resolve("nothing"))).isEmpty();
		HarnessConfig config = HarnessConfig.of(name -> name.equals(HarnessConstants.ROOT_DIR)
				? java.util.Optional.of(dirty.toString())
				: java.util.Optional.empty());
		var provenance = Provenance.collect(config, java.util.Optional.empty(), java.util.Map.of());
		assertThat(provenance.path("git_dirty").isBoolean()).isTrue();
		assertThat(provenance.path("git_dirty").asBoolean()).isTrue();
		HarnessConfig none = HarnessConfig.of(name -> name.equals(HarnessConstants.ROOT_DIR)
				? java.util.Optional.of(root.resolve("nothing").toString())
				: java.util.Optional.empty());
		assertThat(Provenance.collect(none, java.util.Optional.empty(), java.util.Map.of()).path("git_dirty").isNull()).isTrue();
	}

	@Test
	@DisplayName("engine: the double is named the engine double, never the dialect it speaks; a real engine by its kind, observed or declared")
	void engineOfTheDouble() {
		HarnessConfig config = HarnessConfig.of(name -> java.util.Optional.empty());
		java.net.URI url = java.net.URI.create("http://127.0.0.1:1/v1");
		TargetIdentity doubled = new TargetIdentity("base.url", url, "vllm", "0.29.0+engine-double", java.util.List.of("m"), null,
				null, "GET /version: 0.29.0+engine-double", null, null, null, java.util.List.of(), java.util.List.of(), null, null, null);
		TargetIdentity real = new TargetIdentity("base.url", url, "vllm", "0.11.0", java.util.List.of("m"), null, null, null,
				null, null, null, java.util.List.of(), java.util.List.of(), null, null, null);
		TargetIdentity declared = new TargetIdentity("base.url", url, null, null, java.util.List.of("m"), null, null, null, null,
				null, null, java.util.List.of(), java.util.List.of(), null, null, null).withOverride("sglang");
		var ofDouble = Provenance.collect(config, java.util.Optional.of(doubled), java.util.Map.of());
		assertThat(ofDouble.path("engine").asText()).isEqualTo(TargetIdentity.ENGINE_DOUBLE);
		assertThat(ofDouble.path("engine_double").asBoolean()).isTrue();
		assertThat(ofDouble.path("dialect").asText()).isEqualTo("vllm");
		assertThat(Provenance.collect(config, java.util.Optional.of(real), java.util.Map.of()).path("engine").asText())
				.isEqualTo("vllm");
		assertThat(Provenance.collect(config, java.util.Optional.of(real), java.util.Map.of()).path("engine_identity").asText())
				.isEqualTo("observed");
		var ofDeclared = Provenance.collect(config, java.util.Optional.of(declared), java.util.Map.of());
		assertThat(ofDeclared.path("engine").asText()).isEqualTo("sglang");
		assertThat(ofDeclared.path("engine_identity").asText()).as("a declared kind is shown as declared").isEqualTo("declared");
	}

	@Test
	@DisplayName("reproduce_command: the engine container's image and cpuset, as passed")
	void reproduceContainer() {
		java.util.Map<String, String> values = java.util.Map.of(HarnessConstants.ENGINE_IMAGE, "fak-battery/llamacpp:0123456789ab",
				HarnessConstants.ENGINE_CPUSET, "1");
		HarnessConfig config = HarnessConfig.of(name -> java.util.Optional.ofNullable(values.get(name)));
		assertThat(Provenance.reproduceCommand(config)).contains(" -Dengine.image=fak-battery/llamacpp:0123456789ab")
				.contains(" -Dengine.cpuset=1");
		assertThat(Provenance.reproduceCommand(HarnessConfig.of(name -> java.util.Optional.empty()))).doesNotContain("engine.cpuset");
	}

	@Test
	@DisplayName("reproduce_command: every key set that changes what is measured (a 95 % fixed run's stop.looks among them), none naming where the run writes")
	void reproduceEverySetting() {
		java.util.Map<String, String> values = java.util.Map.of(HarnessConstants.TAX_COUNT, "4096", HarnessConstants.STOP_LOOKS, "1",
				HarnessConstants.SWEEP_REQUESTS, "1024", HarnessConstants.SLO_ATTAINMENT, "0.95", HarnessConstants.EXPERIMENTS_DIR,
				"/tmp/run", HarnessConstants.RUN_ID, "20261203T105510Z-de300a", HarnessConstants.PROFILE, "llamacpp");
		HarnessConfig config = HarnessConfig.of(name -> java.util.Optional.ofNullable(values.get(name)));
		assertThat(Provenance.reproduceCommand(config)).startsWith("./mvnw verify -Pllamacpp ")
				.contains(" -Dtax.count=4096", " -Dstop.looks=1", " -Dsweep.requests=1024", " -Dslo.attainment=0.95")
				.doesNotContain("experiments.dir", "harness.run.id", "harness.profile");
	}

	private static int git(Path dir, String... args) throws Exception {
		java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("git", "-C", dir.toString()));
		command.addAll(java.util.List.of(args));
		java.nio.file.Files.createDirectories(dir);
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
		return process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) ? process.exitValue() : -1;
	}
}
