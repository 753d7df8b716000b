package dev.fakbattery.core.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.lang.ArchRule;

import org.apiguardian.api.API;

/**
 * The rule that every public top-level type of a package tree says how far it may be relied on: {@code @API(status =
 * STABLE | EXPERIMENTAL | INTERNAL, since = ...)}. harness-core checks its own packages with it, harness-api its own.
 */
public final class ApiMarkings {

	private ApiMarkings() {
	}

	/** Every public top-level type under {@code packageTree} (for example {@code dev.fakbattery.core..}) carries @API. */
	public static ArchRule everyPublicTypeMarked(String packageTree) {
		return classes().that().resideInAPackage(packageTree).and().arePublic().and().areTopLevelClasses()
			.and().doNotHaveSimpleName("package-info")
			.should().beAnnotatedWith(API.class)
			.because("a public type says whether a rung author may rely on it (STABLE, EXPERIMENTAL) or it is public "
					+ "only for another module of this build (INTERNAL)");
	}
}
