# threads.mk - make test-tsan: the core and the threading tests (tests/c/test_threads.c: the step on
# 1, 2, 3 and 8 threads, bit for bit) under ThreadSanitizer, which finds the data races an
# AddressSanitizer build cannot. .ci/run runs it before make test.

TSAN          = -fsanitize=thread -fno-omit-frame-pointer
TSAN_TESTS    = $(BUILD)/tsan/tests/test_threads
$(eval $(call c_objects_rule,tsan,src/core,core,CORE))
$(eval $(call core_library_rule,tsan))
$(eval $(call c_tests_rule,tsan))

# A race stops the suite at once (exit status 66), which run_suites.sh counts as a failure.
.PHONY: test-tsan
test-tsan: check-deps $(TSAN_TESTS)
	@TSAN_OPTIONS="halt_on_error=1 exitcode=66" sh tests/run_suites.sh $(TSAN_TESTS)
