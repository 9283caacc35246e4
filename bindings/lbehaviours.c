/* SPDX-License-Identifier: MIT */
/* lbehaviours.c - the behaviour methods of steer.Vehicle: one per row of the core's behaviour
 * table (v:seek, v:wander, ...), reading the row's positional targets and options, plus v:stop,
 * v:behaviours and v:forces. */
#include <string.h>

#include "lsteer_internal.h"

/// Reads a target at *arg: a vehicle, or (unless vehicle_only) two numbers x, y.
static SteerTarget check_target(lua_State *L, int *arg, LVehicle *self, bool vehicle_only)
{
    int a = *arg;
    if (!vehicle_only && lua_type(L, a) == LUA_TNUMBER) {
        double x = lsteer_check_coordinate(L, a);
        double y = lsteer_check_coordinate(L, a + 1);
        *arg += 2;
        return steer_target_point(x, y);
    }
    LVehicle *t = lsteer_test_vehicle(L, a);
    if (!t) luaL_typeerror(L, a, vehicle_only ? "vehicle" : "vehicle or x, y");
    if (!lsteer_vehicle_alive(t)) {
        lsteer_push_vehicle_label(L, a);
        luaL_argerror(L, a, lua_pushfstring(L, "%s was removed", lua_tostring(L, -1)));
    }
    if (t->owner != self->owner) luaL_argerror(L, a, "vehicle of another world");
    if (t->serial == self->serial) luaL_argerror(L, a, "a vehicle cannot target itself");
    *arg += 1;
    return steer_target_vehicle(t->id);
}

/// Reads a leash option (by name: "none", "pull", "roam") into the def, when the table has one.
static void check_leash(lua_State *L, int opts, const SteerOptionSpec *spec, SteerBehaviourDef *def)
{
    if (!lua_istable(L, opts) || lsteer_rawfield(L, opts, spec->key) == LUA_TNIL) {
        if (lua_istable(L, opts)) lua_pop(L, 1);
        return;
    }
    int i = lsteer_names_find(L, -1, &LSTEER_LEASH_NAMES);
    if (i < 0) lsteer_option_error(L, opts, spec->key, lsteer_names_expected(L, -1, &LSTEER_LEASH_NAMES));
    SteerLeash leash = (SteerLeash)i;
    memcpy((char *)def + spec->offset, &leash, sizeof leash);
    lua_pop(L, 1);
}

/// Reads the row's positional targets from *arg on, in the row's order.
static void check_targets(lua_State *L, int *arg, LVehicle *v, const SteerBehaviourInfo *info, SteerBehaviourDef *def)
{
    for (int i = 0; i < info->target_count; i++) {
        const SteerTargetSpec *spec = &info->targets[i];
        char *at = (char *)def + spec->offset;
        switch (spec->arg) {
        case STEER_ARG_POINT_OR_VEHICLE:
        case STEER_ARG_VEHICLE: {
            SteerTarget target = check_target(L, arg, v, spec->arg == STEER_ARG_VEHICLE);
            memcpy(at, &target, sizeof target);
            break;
        }
        case STEER_ARG_PATH: {
            SteerPathId path = lsteer_check_path(L, (*arg)++, v->owner);
            memcpy(at, &path, sizeof path);
            break;
        }
        case STEER_ARG_FLOW_FIELD: {
            SteerFlowFieldId field = lsteer_check_flow_field(L, (*arg)++, v->owner);
            memcpy(at, &field, sizeof field);
            break;
        }
        }
    }
}

/// navigate's table form, `v:navigate{x =, y =, ...}` or `v:navigate{target = other, ...}`: the
/// stack becomes (v, options, x, y) or (v, options, other), the options a copy of the table
/// without those keys, still argument 2 for the messages.
static void table_target(lua_State *L, const char *name)
{
    int t = 2;
    lua_newtable(L); /* the options */
    int opts = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_type(L, -2) == LUA_TSTRING) {
            const char *key = lua_tostring(L, -2);
            if (strcmp(key, "x") == 0 || strcmp(key, "y") == 0 || strcmp(key, "target") == 0) {
                lua_pop(L, 1);
                continue;
            }
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, opts);
    }
    int target = lua_getfield(L, t, "target");
    int x = lua_getfield(L, t, "x"), y = lua_getfield(L, t, "y");
    if (target != LUA_TNIL) {
        if (x != LUA_TNIL || y != LUA_TNIL) luaL_argerror(L, 2, "give target or x, y, not both");
        lua_pop(L, 2);
        lua_remove(L, 2); /* (v, opts, target) */
        return;
    }
    if (x == LUA_TNIL && y == LUA_TNIL)
        luaL_argerror(L, 2, lua_pushfstring(L, "%s expects target = vehicle or x =, y =", name));
    if (x != LUA_TNUMBER)
        lsteer_option_error(L, 2, "x", lua_pushfstring(L, "number expected, got %s", lua_typename(L, x)));
    if (y != LUA_TNUMBER)
        lsteer_option_error(L, 2, "y", lua_pushfstring(L, "number expected, got %s", lua_typename(L, y)));
    lua_remove(L, -3); /* the nil target: (v, t, opts, x, y) */
    lua_remove(L, 2);  /* (v, opts, x, y) */
}

/// v:<behaviour>(targets..., {options}): upvalue 1 is the behaviour. Starts from the behaviour's
/// current parameters when it is on (so `v:arrive(x, y)` each frame keeps its slowing_radius),
/// from the defaults when it is off. Returns v, for chaining.
static int behaviour_method(lua_State *L)
{
    SteerBehaviour type = (SteerBehaviour)lua_tointeger(L, lua_upvalueindex(1));
    LVehicle *v = lsteer_check_vehicle(L, 1);
    SteerWorld *world = v->owner->world;
    SteerBehaviourDef def;
    /* (asked first: a behaviour not on is the common case, and the get would format an error) */
    if (!steer_vehicle_has_behaviour(world, v->id, type) ||
        steer_vehicle_get_behaviour(world, v->id, type, &def, NULL) != STEER_OK)
        def = steer_default_behaviour_def(type);

    const SteerBehaviourInfo *info = steer_behaviour_info(type); /* type: this method's own */
    int arg = 2;
    if (type == STEER_NAVIGATE && lua_gettop(L) == 2 && lua_istable(L, 2)) {
        table_target(L, info->name); /* (v, options, targets...) */
        arg = 3;
        check_targets(L, &arg, v, info, &def);
        arg = 2;
    } else {
        check_targets(L, &arg, v, info, &def);
        if (lua_gettop(L) > arg) luaL_argerror(L, arg + 1, "no more arguments expected (options go in one table)");
    }

    SteerBehaviourDef changed = def;
    OptList own = {info->name, NULL, info->option_count, info->options, NULL};
    OptList common = lsteer_common_options();
    uint64_t mask = lsteer_read_options2(L, arg, &own, &changed, &common, &changed);
    bool has_options = lua_istable(L, arg);
    for (int i = 0; has_options && i < info->option_count; i++) {
        const SteerOptionSpec *spec = &info->options[i];
        if (spec->core_only || (spec->kind != STEER_OPTION_LEASH && !spec->given_offset)) continue;
        if (spec->kind == STEER_OPTION_LEASH) check_leash(L, arg, spec, &changed);
        /* An option that counts only when given (wander's anchor) is given now. */
        if (spec->given_offset && (mask & (1ULL << i))) {
            bool given = true;
            memcpy((char *)&changed + spec->given_offset, &given, sizeof given);
        }
    }
    /* Targets were checked above: what the core refuses is an option (a value past a limit). */
    if (steer_vehicle_set_behaviour(world, v->id, &changed) != STEER_OK)
        return luaL_argerror(L, arg, lsteer_core_error(world));
    lua_settop(L, 1);
    return 1;
}

static int check_behaviour_name(lua_State *L, int arg)
{
    /* a number is no name, though Lua would make one of it ("unknown behaviour '3'") */
    if (lua_type(L, arg) != LUA_TSTRING)
        return luaL_argerror(L, arg,
                             lua_pushfstring(L, "behaviour name (string) expected, got %s", luaL_typename(L, arg)));
    const char *name = lua_tostring(L, arg);
    SteerBehaviour type;
    if (steer_behaviour_from_name(name, &type)) return (int)type;
    const char *names[STEER_BEHAVIOUR_COUNT];
    for (int i = 0; i < STEER_BEHAVIOUR_COUNT; i++) names[i] = steer_behaviour_name((SteerBehaviour)i);
    const char *hint = lsteer_suggest(name, names, STEER_BEHAVIOUR_COUNT);
    if (hint)
        return luaL_argerror(L, arg, lua_pushfstring(L, "unknown behaviour '%s' (did you mean '%s'?)", name, hint));
    return luaL_argerror(L, arg, lua_pushfstring(L, "unknown behaviour '%s'", name));
}

/// v:stop() switches every behaviour off; v:stop("wander", ...) the ones named (all checked first).
/// Returns v, as the behaviour methods do, so that `v:stop("flee"):wander{}` chains.
static int vehicle_stop(lua_State *L)
{
    LVehicle *v = lsteer_check_vehicle(L, 1);
    int n = lua_gettop(L);
    if (n == 1) {
        steer_vehicle_clear_behaviours(v->owner->world, v->id);
        return 1;
    }
    for (int i = 2; i <= n; i++) check_behaviour_name(L, i);
    for (int i = 2; i <= n; i++)
        steer_vehicle_clear_behaviour(v->owner->world, v->id, (SteerBehaviour)check_behaviour_name(L, i));
    lua_settop(L, 1);
    return 1;
}

static void push_target(lua_State *L, int world_idx, SteerTarget t)
{
    if (t.kind == STEER_TARGET_VEHICLE) {
        steer_lua_push_vehicle(L, world_idx, t.vehicle);
        return;
    }
    lua_createtable(L, 2, 0);
    lua_pushnumber(L, t.point.x);
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, t.point.y);
    lua_rawseti(L, -2, 2);
}

/// v:behaviours() -> {name = {option = value, ..., target = v or {x, y}}}
static int vehicle_behaviours(lua_State *L)
{
    LVehicle *v = lsteer_check_vehicle(L, 1);
    lua_getiuservalue(L, 1, 1); /* the vehicle's world */
    int world_idx = lua_gettop(L);
    SteerBehaviour types[STEER_BEHAVIOUR_COUNT];
    int n = steer_vehicle_get_behaviours(v->owner->world, v->id, types, STEER_BEHAVIOUR_COUNT);
    lua_createtable(L, 0, n);
    for (int i = 0; i < n && i < STEER_BEHAVIOUR_COUNT; i++) {
        SteerBehaviourDef def;
        if (steer_vehicle_get_behaviour(v->owner->world, v->id, types[i], &def, NULL) != STEER_OK) continue;
        lsteer_push_behaviour_params(L, &def);
        const SteerBehaviourInfo *info = steer_behaviour_info(def.type);
        for (int t = 0; t < info->target_count; t++) {
            const SteerTargetSpec *spec = &info->targets[t];
            const char *at = (const char *)&def + spec->offset;
            if (spec->arg == STEER_ARG_PATH) {
                SteerPathId path;
                memcpy(&path, at, sizeof path);
                lsteer_push_path(L, world_idx, path);
            } else if (spec->arg == STEER_ARG_FLOW_FIELD) {
                SteerFlowFieldId field;
                memcpy(&field, at, sizeof field);
                lsteer_push_flow_field(L, world_idx, field);
            } else {
                SteerTarget target;
                memcpy(&target, at, sizeof target);
                push_target(L, world_idx, target);
            }
            lua_setfield(L, -2, spec->name);
        }
        lua_setfield(L, -2, steer_behaviour_name(def.type));
    }
    return 1;
}

static void push_point(lua_State *L, SteerVec2 p)
{
    lua_createtable(L, 2, 0);
    lua_pushnumber(L, p.x);
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, p.y);
    lua_rawseti(L, -2, 2);
}

/// v:forces() -> {name = {force = {x, y}, kept =, evaluated =, target = {x, y}, ...}}: what each
/// active behaviour did in the last step, the numbers the inspector shows, so that scripts can draw
/// or log why a vehicle turned. Extra keys where the behaviour has them: wander_target (wander,
/// flock), box_length (avoid_obstacles), feelers = {{x, y} x 3} (avoid_walls), waypoint (follow, 1-based).
static int vehicle_forces(lua_State *L)
{
    LVehicle *v = lsteer_check_vehicle(L, 1);
    SteerBehaviour types[STEER_BEHAVIOUR_COUNT];
    int n = steer_vehicle_get_behaviours(v->owner->world, v->id, types, STEER_BEHAVIOUR_COUNT);
    lua_createtable(L, 0, n);
    for (int i = 0; i < n && i < STEER_BEHAVIOUR_COUNT; i++) {
        SteerBehaviourState st;
        if (steer_vehicle_get_behaviour(v->owner->world, v->id, types[i], NULL, &st) != STEER_OK) continue;
        lua_createtable(L, 0, 6);
        push_point(L, st.force);
        lua_setfield(L, -2, "force");
        lua_pushnumber(L, st.kept);
        lua_setfield(L, -2, "kept");
        lua_pushboolean(L, st.evaluated);
        lua_setfield(L, -2, "evaluated");
        push_point(L, st.target);
        lua_setfield(L, -2, "target");
        unsigned inspect = steer_behaviour_info(types[i])->inspect;
        if (inspect & STEER_INSPECT_WANDER_TARGET) {
            push_point(L, st.wander_target);
            lua_setfield(L, -2, "wander_target");
        }
        if (inspect & STEER_INSPECT_BOX_LENGTH) {
            lua_pushnumber(L, st.box_length);
            lua_setfield(L, -2, "box_length");
        }
        if (inspect & STEER_INSPECT_FEELERS) {
            lua_createtable(L, 3, 0);
            for (int f = 0; f < 3; f++) {
                push_point(L, st.feelers[f]);
                lua_rawseti(L, -2, f + 1);
            }
            lua_setfield(L, -2, "feelers");
        }
        if (inspect & STEER_INSPECT_WAYPOINT) {
            lua_pushinteger(L, (lua_Integer)st.waypoint + 1);
            lua_setfield(L, -2, "waypoint");
        }
        lua_setfield(L, -2, steer_behaviour_name(types[i]));
    }
    return 1;
}

void lsteer_add_behaviour_methods(lua_State *L)
{
    for (int type = 0; type < STEER_BEHAVIOUR_COUNT; type++) {
        lua_pushinteger(L, type);
        lua_pushcclosure(L, behaviour_method, 1);
        lua_setfield(L, -2, steer_behaviour_name((SteerBehaviour)type));
    }
    lua_pushcfunction(L, vehicle_stop);
    lua_setfield(L, -2, "stop");
    lua_pushcfunction(L, vehicle_behaviours);
    lua_setfield(L, -2, "behaviours");
    lua_pushcfunction(L, vehicle_forces);
    lua_setfield(L, -2, "forces");
}
