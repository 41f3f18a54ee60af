# Repository-wide linters: shellcheck on every shell script, Spotless (google-java-format) on
# every Java file; Error Prone runs inside every Java compilation (pom.xml).
.PHONY: test-shellcheck test-java-format java-format
UNIT_TEST_TARGETS += test-shellcheck test-java-format
UNIT_JVM_TARGETS += test-java-format

# Every *.sh plus the scripts without the suffix (a bash or sh shebang); settings: .shellcheckrc.
SHELL_SCRIPTS = $(shell git ls-files '*.sh'; git grep -lE '^\#!/(usr/)?bin/(env )?(ba)?sh' -- ':!*.sh')
test-shellcheck: ## shellcheck on every shell script of the repository
	@shellcheck $(SHELL_SCRIPTS)

test-java-format: ## the Java sources are formatted as google-java-format says (fix: make java-format)
	@$(MVN) spotless:check

java-format: ## reformat the Java sources with google-java-format
	@$(MVN) spotless:apply
