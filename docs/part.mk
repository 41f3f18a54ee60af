# docs: the doc tests (docs/tools/test_docs.py) and the generated reference pages.
.PHONY: docs-reference test-docs-static test-docs
UNIT_TEST_TARGETS += test-docs-static
E2E_TEST_TARGETS += test-docs
DOCS_PY = source gatling/experiments/venv.sh && "$$PY"

docs-reference: ## regenerate docs/reference/crds.md from the CRDs
	@$(DOCS_PY) docs/tools/crd_reference.py

test-docs-static: ## every shell block tagged (run or says why), links resolve, generated pages current, doc claims backed by tests, what pages name exists
	@$(DOCS_PY) -m pytest -q -c docs/tools/pytest.ini -m 'not cluster' docs/tools/test_docs.py docs/tools/test_doc_claims.py docs/tools/test_doc_facts.py docs/tools/test_recorded_results.py

test-docs: controller-build ## run every documented command on localkube (with make run's controller)
	@$(DOCS_PY) -m pytest -q -s --durations=12 -c docs/tools/pytest.ini -m cluster docs/tools/test_docs.py
