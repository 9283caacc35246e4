# threads.mk - make test-tsan: the core and the threading tests (tests/c/test_threads.c: the step on
# 1, 2, 3 and 8 threads, bit for bit) under ThreadSanitizer, which finds the data races an
# AddressSanitizer build cannot. .ci/run runs it before make test.

TSAN          = -fsanitize=thread -fno-omit-frame-pointer
CORE_OBJ_TSAN = $(CORE_SRC:src/core/%.c=$(FLAVOUR_DIR_tsan)/core/%.o)
TSAN_TESTS    = $(BUILD)/tsan/tests/test_threads
$(eval $(call c_objects_rule,tsan,src/core,core,CORE))

$(BUILD)/tsan/libsteer.a: $(CORE_OBJ_TSAN)
	ar rcs $@ $^

$(BUILD)/tsan/tests/%: tests/c/%.c tests/c/test_support.h $(BUILD)/tsan/libsteer.a
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -Wno-missing-prototypes -O1 -g $(TSAN) $(STEER_INC) -Isrc/core $< $(BUILD)/tsan/libsteer.a -lcmocka -lm -o $@

# A race stops the suite at once (exit status 66), which run_suites.sh counts as a failure.
.PHONY: test-tsan
test-tsan: check-deps $(TSAN_TESTS)
	@TSAN_OPTIONS="halt_on_error=1 exitcode=66" sh tests/run_suites.sh $(TSAN_TESTS)
