/* SPDX-License-Identifier: MIT */
/* lsteer_compat.h - the Lua 5.4 C API the module uses, on top of the Lua 5.1 API of LuaJIT 2.1.
 *
 * The binding sources are written once, against Lua 5.4. Built against Lua 5.4 this header adds
 * nothing. Built against LuaJIT (make luajit: LUA_VERSION_NUM 501) it supplies what 5.1 lacks,
 * with 5.4's behaviour wherever a script or a message can tell the difference, so that every
 * query, rule and error message reads the same on both:
 *
 *  - getters return the type they pushed (lua_getfield, lua_rawget, lua_rawgeti, lua_rawgetp);
 *  - integer keys are lua_Integer: a packed vehicle id (64 bits) is a key no double could hold,
 *    so a key outside ±2^53 becomes its 8 bytes as a string (distinct from every number key);
 *  - lua_tointeger(x), lua_isinteger, luaL_check/optinteger accept integral values only, and
 *    refuse others with 5.4's words (`number has no integer representation`);
 *  - several user values per userdata live in its environment table (5.1 has one slot);
 *  - luaL_newmetatable sets __name and type errors say `got steer.Vehicle`, as 5.4's do;
 *  - lua_pushfstring and luaL_error know %I (lua_Integer) and print %f the way 5.4 does (3.0);
 *  - argument errors name a method reached by a tail call as 5.4 does (`bad argument #1 to
 *    'spawn'`), and LuaJIT's own checks (luaL_checktype, ...) go through the same words;
 *  - lua_pushcfunction pushes one cached closure per function (LuaJIT would make one per push);
 *  - to-be-closed slots: lua_closeslot calls __close; an error that unwinds past the slot does
 *    not (5.1 has no such hook), so the code that needs it (w:think's pass, lbrains.c) runs in a
 *    protected call there;
 *  - lua_warning has no 5.1 counterpart: warnings are dropped, as 5.4's standalone interpreter
 *    does while they are off (its default).
 * Private to bindings/; included by lsteer_internal.h after lua.h and lauxlib.h.
 */
#ifndef LSTEER_COMPAT_H
#define LSTEER_COMPAT_H

#include <lauxlib.h>
#include <lua.h>

/* Only two Lua APIs are supported: 5.4, and 5.1 as LuaJIT 2.1 has it (which adds luaL_testudata,
 * luaL_setfuncs, luaL_traceback, ... to 5.1). Any other set of headers would compile with implicit
 * declarations on an older gcc and give a module that fails only when required (`undefined symbol:
 * luaL_testudata`), so the build stops here instead. The usual way to get there is luarocks'
 * --lua-version=5.1 on a system whose 5.1 is PUC Lua: LuaJIT's headers sit beside a luajit.h. */
#if LUA_VERSION_NUM == 501
#if defined(__has_include)
#if !__has_include(<luajit.h>)
#error "steer needs Lua 5.4 or LuaJIT 2.1, not PUC Lua 5.1: LUA_INCDIR=/usr/include/luajit-2.1 (see the rockspec)"
#endif
#endif
#elif LUA_VERSION_NUM != 504
#error "steer needs Lua 5.4 or LuaJIT 2.1: these headers are another Lua version"
#endif

#if LUA_VERSION_NUM < 503

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define LSTEER_COMPAT_51 1

#ifndef LUA_OK
#define LUA_OK 0
#endif

static inline int lsteer_compat_absindex(lua_State *L, int idx)
{
    return (idx > 0 || idx <= LUA_REGISTRYINDEX) ? idx : lua_gettop(L) + idx + 1;
}

/* ---- getters that return the type ---------------------------------------------------------- */

static inline int lsteer_compat_getfield(lua_State *L, int idx, const char *k)
{
    lua_getfield(L, idx, k);
    return lua_type(L, -1);
}

static inline int lsteer_compat_rawget(lua_State *L, int idx)
{
    lua_rawget(L, idx);
    return lua_type(L, -1);
}

/// Pushes the key standing for integer n: n itself when a double holds it exactly, else its bytes.
static inline void lsteer_compat_push_key(lua_State *L, lua_Integer n)
{
    if (n >= -(((lua_Integer)1) << 53) && n <= (((lua_Integer)1) << 53)) {
        lua_pushnumber(L, (lua_Number)n);
    } else {
        char bytes[sizeof n];
        memcpy(bytes, &n, sizeof n);
        lua_pushlstring(L, bytes, sizeof bytes);
    }
}

static inline int lsteer_compat_rawgeti(lua_State *L, int idx, lua_Integer n)
{
    if (n >= INT_MIN && n <= INT_MAX) {
        lua_rawgeti(L, idx, (int)n);
    } else {
        idx = lsteer_compat_absindex(L, idx);
        lsteer_compat_push_key(L, n);
        lua_rawget(L, idx);
    }
    return lua_type(L, -1);
}

static inline void lsteer_compat_rawseti(lua_State *L, int idx, lua_Integer n)
{
    if (n >= INT_MIN && n <= INT_MAX) {
        lua_rawseti(L, idx, (int)n);
    } else {
        idx = lsteer_compat_absindex(L, idx);
        lsteer_compat_push_key(L, n);
        lua_insert(L, -2);
        lua_rawset(L, idx);
    }
}

static inline int lsteer_compat_rawgetp(lua_State *L, int idx, const void *p)
{
    idx = lsteer_compat_absindex(L, idx);
    lua_pushlightuserdata(L, (void *)(uintptr_t)p);
    lua_rawget(L, idx);
    return lua_type(L, -1);
}

static inline void lsteer_compat_rawsetp(lua_State *L, int idx, const void *p)
{
    idx = lsteer_compat_absindex(L, idx);
    lua_pushlightuserdata(L, (void *)(uintptr_t)p);
    lua_insert(L, -2);
    lua_rawset(L, idx);
}

static inline int lsteer_compat_getmetafield(lua_State *L, int obj, const char *e)
{
    return luaL_getmetafield(L, obj, e) ? lua_type(L, -1) : LUA_TNIL;
}

/// 5.4's lua_pushstring and lua_pushlstring return the copy they pushed (5.1's return nothing).
static inline const char *lsteer_compat_pushstring(lua_State *L, const char *s)
{
    lua_pushstring(L, s);
    return lua_tostring(L, -1);
}

static inline const char *lsteer_compat_pushlstring(lua_State *L, const char *s, size_t len)
{
    lua_pushlstring(L, s, len);
    return lua_tostring(L, -1);
}

static inline int lsteer_compat_argerror(lua_State *L, int arg, const char *extramsg);
static inline int lsteer_compat_error(lua_State *L, const char *fmt, ...);

/* ---- integers ------------------------------------------------------------------------------ */

/// 5.4's lua_tointegerx: a number (or numeric string) with an exact integer value, else 0 and
/// *isnum = 0 (LuaJIT's truncates 2.5 to 2).
static inline lua_Integer lsteer_compat_tointegerx(lua_State *L, int idx, int *isnum)
{
    int ok = 0;
    lua_Integer i = 0;
    if (lua_isnumber(L, idx)) {
        lua_Number n = lua_tonumber(L, idx);
        /* -2^63 <= n < 2^63, and integral */
        if (n >= -9223372036854775808.0 && n < 9223372036854775808.0 && floor(n) == n) {
            i = (lua_Integer)n;
            ok = 1;
        }
    }
    if (isnum) *isnum = ok;
    return i;
}

/// 5.4's lua_isinteger: a number (not a string) with an integer value (5.1 has no subtype).
static inline int lsteer_compat_isinteger(lua_State *L, int idx)
{
    int ok = 0;
    if (lua_type(L, idx) == LUA_TNUMBER) lsteer_compat_tointegerx(L, idx, &ok);
    return ok;
}

/// 5.4's luaL_typeerror: names a userdata by its metatable's __name.
static inline int lsteer_compat_typeerror(lua_State *L, int arg, const char *tname)
{
    const char *typearg;
    if (lsteer_compat_getmetafield(L, arg, "__name") == LUA_TSTRING)
        typearg = lua_tostring(L, -1);
    else if (lua_type(L, arg) == LUA_TLIGHTUSERDATA)
        typearg = "light userdata";
    else
        typearg = luaL_typename(L, arg);
    return lsteer_compat_argerror(L, arg, lua_pushfstring(L, "%s expected, got %s", tname, typearg));
}

static inline lua_Integer lsteer_compat_checkinteger(lua_State *L, int arg)
{
    int ok;
    lua_Integer i = lsteer_compat_tointegerx(L, arg, &ok);
    if (!ok) {
        if (lua_isnumber(L, arg))
            lsteer_compat_argerror(L, arg, "number has no integer representation");
        else
            lsteer_compat_typeerror(L, arg, lua_typename(L, LUA_TNUMBER));
    }
    return i;
}

static inline lua_Integer lsteer_compat_optinteger(lua_State *L, int arg, lua_Integer def)
{
    return lua_isnoneornil(L, arg) ? def : lsteer_compat_checkinteger(L, arg);
}

/* ---- metatables ---------------------------------------------------------------------------- */

static inline int lsteer_compat_newmetatable(lua_State *L, const char *tname)
{
    if (!luaL_newmetatable(L, tname)) return 0;
    lua_pushstring(L, tname);
    lua_setfield(L, -2, "__name");
    return 1;
}

static inline void *lsteer_compat_checkudata(lua_State *L, int ud, const char *tname)
{
    void *p = luaL_testudata(L, ud, tname);
    if (!p) lsteer_compat_typeerror(L, ud, tname);
    return p;
}

/* ---- user values: the userdata's environment table, slot n --------------------------------- */

static inline void *lsteer_compat_newuserdatauv(lua_State *L, size_t size, int nuvalue)
{
    void *p = lua_newuserdata(L, size);
    if (nuvalue > 0) {
        lua_createtable(L, nuvalue, 0);
        lua_setfenv(L, -2);
    }
    return p;
}

/// Pushes the userdata's table of user values; false (nil pushed) when it has none. A userdata
/// made without user values has the globals as its environment: those are not its values.
static inline int lsteer_compat_push_uvtable(lua_State *L, int idx)
{
    lua_getfenv(L, idx);
    if (lua_istable(L, -1) && !lua_rawequal(L, -1, LUA_GLOBALSINDEX)) return 1;
    lua_pop(L, 1);
    lua_pushnil(L);
    return 0;
}

static inline int lsteer_compat_getiuservalue(lua_State *L, int idx, int n)
{
    if (!lsteer_compat_push_uvtable(L, idx)) return LUA_TNONE; /* nil pushed, as 5.4 does */
    lua_rawgeti(L, -1, n);
    lua_remove(L, -2);
    return lua_type(L, -1);
}

static inline int lsteer_compat_setiuservalue(lua_State *L, int idx, int n)
{
    idx = lsteer_compat_absindex(L, idx);
    if (!lsteer_compat_push_uvtable(L, idx)) {
        lua_pop(L, 2);
        return 0;
    }
    lua_insert(L, -2);
    lua_rawseti(L, -2, n);
    lua_pop(L, 1);
    return 1;
}

/* A LuaJIT C function is an object made at each lua_pushcfunction (5.4's is a light value): the
 * module pushes the same few on every think, so each is made once and kept in the registry under
 * its address (which also makes two pushes of one function equal, as in 5.4). */
static inline void lsteer_compat_pushcfunction(lua_State *L, lua_CFunction fn)
{
    void *key = (void *)(uintptr_t)fn;
    lua_pushlightuserdata(L, key);
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (lua_type(L, -1) == LUA_TFUNCTION) return;
    lua_pop(L, 1);
    lua_pushcclosure(L, fn, 0);
    lua_pushlightuserdata(L, key);
    lua_pushvalue(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
}

/* ---- to-be-closed slots and warnings ------------------------------------------------------- */

static inline void lsteer_compat_toclose(lua_State *L, int idx)
{
    (void)L;
    (void)idx;
}

static inline void lsteer_compat_closeslot(lua_State *L, int idx)
{
    idx = lsteer_compat_absindex(L, idx);
    if (lsteer_compat_getmetafield(L, idx, "__close") == LUA_TFUNCTION) {
        lua_pushvalue(L, idx);
        lua_pushnil(L);
        lua_call(L, 2, 0);
    } else {
        lua_pop(L, 1);
    }
    lua_pushnil(L);
    lua_replace(L, idx);
}

static inline void lsteer_compat_warning(lua_State *L, const char *msg, int tocont)
{
    (void)L;
    (void)msg;
    (void)tocont;
}

/* ---- formatted strings: 5.4's %I and %f ---------------------------------------------------- */

static inline const char *lsteer_compat_pushvfstring(lua_State *L, const char *fmt, va_list ap)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    char tmp[64];
    for (const char *p = fmt; *p; p++) {
        if (*p != '%' || !p[1]) {
            luaL_addchar(&b, *p);
            continue;
        }
        switch (*++p) {
        case 's': {
            const char *s = va_arg(ap, const char *);
            luaL_addstring(&b, s ? s : "(null)");
            break;
        }
        case 'c': luaL_addchar(&b, (char)va_arg(ap, int)); break;
        case 'd':
            snprintf(tmp, sizeof tmp, "%d", va_arg(ap, int));
            luaL_addstring(&b, tmp);
            break;
        case 'I':
            snprintf(tmp, sizeof tmp, "%lld", (long long)va_arg(ap, lua_Integer));
            luaL_addstring(&b, tmp);
            break;
        case 'p':
            snprintf(tmp, sizeof tmp, "%p", va_arg(ap, void *));
            luaL_addstring(&b, tmp);
            break;
        case 'f': {
            /* as 5.4 writes a float: %.14g, and ".0" when that looks like an integer */
            snprintf(tmp, sizeof tmp, "%.14g", (double)va_arg(ap, lua_Number));
            luaL_addstring(&b, tmp);
            if (tmp[strspn(tmp, "-0123456789")] == '\0') luaL_addstring(&b, ".0");
            break;
        }
        case '%': luaL_addchar(&b, '%'); break;
        default:
            luaL_addchar(&b, '%');
            luaL_addchar(&b, *p);
            break;
        }
    }
    luaL_pushresult(&b);
    return lua_tostring(L, -1);
}

static inline const char *lsteer_compat_pushfstring(lua_State *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *s = lsteer_compat_pushvfstring(L, fmt, ap);
    va_end(ap);
    return s;
}

static inline int lsteer_compat_error(lua_State *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    luaL_where(L, 1);
    lsteer_compat_pushvfstring(L, fmt, ap);
    va_end(ap);
    lua_concat(L, 2);
    return lua_error(L);
}

/* ---- argument errors: 5.4's names for a method called in a tail call ------------------------ */

/// Pushes the key under which table t holds the function at fn (or returns 0, pushing nothing).
static inline int lsteer_compat_key_of(lua_State *L, int t, int fn)
{
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_type(L, -2) == LUA_TSTRING && lua_rawequal(L, -1, fn)) {
            lua_pop(L, 1);
            return 1;
        }
        lua_pop(L, 1);
    }
    return 0;
}

/// The method name of the function at fn in the methods of the value at arg 1 (its metatable,
/// its __index table or a table upvalue of its __index function); pushes it, or returns 0.
static inline int lsteer_compat_method_name(lua_State *L, int fn)
{
    if (!lua_getmetatable(L, 1)) return 0;
    int mt = lua_gettop(L);
    if (lsteer_compat_key_of(L, mt, fn)) goto found;
    lua_getfield(L, mt, "__index");
    if (lua_istable(L, -1) && lsteer_compat_key_of(L, mt + 1, fn)) goto found;
    if (lua_isfunction(L, -1)) {
        for (int i = 1; lua_getupvalue(L, mt + 1, i); i++) {
            if (lua_istable(L, -1) && lsteer_compat_key_of(L, mt + 2, fn)) goto found;
            lua_pop(L, 1);
        }
    }
    lua_settop(L, mt - 1);
    return 0;
found:
    lua_replace(L, mt);
    lua_settop(L, mt);
    return 1;
}

/// 5.4's name for a function called from C (pcall(steer.world, ...)): `module.key` from the loaded
/// modules, `key` for a global. Pushes it, or returns 0.
static inline int lsteer_compat_global_name(lua_State *L, int fn)
{
    int top = lua_gettop(L);
    lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
    if (!lua_istable(L, -1)) {
        lua_settop(L, top);
        return 0;
    }
    lua_pushnil(L);
    while (lua_next(L, top + 1)) {
        if (lua_type(L, -2) == LUA_TSTRING && lua_istable(L, -1) && lsteer_compat_key_of(L, top + 3, fn)) {
            const char *mod = lua_tostring(L, top + 2);
            if (strcmp(mod, "_G") == 0)
                lua_pushvalue(L, -1);
            else
                lua_pushfstring(L, "%s.%s", mod, lua_tostring(L, -1));
            lua_replace(L, top + 1);
            lua_settop(L, top + 1);
            return 1;
        }
        lua_pop(L, 1);
    }
    lua_settop(L, top);
    return 0;
}

/* Lua 5.4 calls a C function in a tail call as a plain call, so its errors still say `bad argument
 * #1 to 'spawn'` for `return w:spawn{...}`; LuaJIT keeps no name for a function reached by a
 * tail call or called from C. Then a function found among the first argument's methods is named
 * (and counted) as a method, as 5.4 does in a tail call; any other is named as 5.4 names a function
 * called from C: by its module (`steer.world`). (So `return steer.world{...}`, `world` in 5.4, is
 * `steer.world` here, and pcall(w.spawn, w, ...), #2 to '?' in 5.4, is #1 to 'spawn'.) */
static inline int lsteer_compat_argerror(lua_State *L, int arg, const char *extramsg)
{
    lua_Debug ar;
    if (!lua_getstack(L, 0, &ar)) return lsteer_compat_error(L, "bad argument #%d (%s)", arg, extramsg);
    lua_getinfo(L, "nf", &ar);
    const char *name = ar.name;
    int method = ar.namewhat && strcmp(ar.namewhat, "method") == 0;
    if (!name && lsteer_compat_method_name(L, lua_gettop(L))) {
        name = lua_tostring(L, -1);
        method = 1;
    } else if (!name && lsteer_compat_global_name(L, lua_gettop(L))) {
        name = lua_tostring(L, -1);
    }
    if (method && --arg == 0) return lsteer_compat_error(L, "calling '%s' on bad self (%s)", name, extramsg);
    return lsteer_compat_error(L, "bad argument #%d to '%s' (%s)", arg, name ? name : "?", extramsg);
}

/* LuaJIT's own checks raise through its own argument error: these go through the one above. */
static inline void lsteer_compat_checktype(lua_State *L, int arg, int t)
{
    if (lua_type(L, arg) != t) lsteer_compat_typeerror(L, arg, lua_typename(L, t));
}

static inline const char *lsteer_compat_checklstring(lua_State *L, int arg, size_t *len)
{
    const char *s = lua_tolstring(L, arg, len);
    if (!s) lsteer_compat_typeerror(L, arg, lua_typename(L, LUA_TSTRING));
    return s;
}

static inline lua_Number lsteer_compat_checknumber(lua_State *L, int arg)
{
    if (!lua_isnumber(L, arg)) lsteer_compat_typeerror(L, arg, lua_typename(L, LUA_TNUMBER));
    return lua_tonumber(L, arg);
}

/* ---- the names the sources use ------------------------------------------------------------- */

#define lua_absindex lsteer_compat_absindex
#define lua_getfield lsteer_compat_getfield
#define lua_rawget lsteer_compat_rawget
#define lua_rawgeti lsteer_compat_rawgeti
#define lua_rawseti lsteer_compat_rawseti
#define lua_rawgetp lsteer_compat_rawgetp
#define lua_rawsetp lsteer_compat_rawsetp
#define lua_rawlen(L, i) lua_objlen((L), (i))
#define luaL_getmetafield lsteer_compat_getmetafield
#undef lua_tointeger
#define lua_tointeger(L, i) lsteer_compat_tointegerx((L), (i), NULL)
#define lua_tointegerx lsteer_compat_tointegerx
#define lua_isinteger lsteer_compat_isinteger
#define luaL_typeerror lsteer_compat_typeerror
#undef luaL_checkinteger
#define luaL_checkinteger lsteer_compat_checkinteger
#undef luaL_optinteger
#define luaL_optinteger lsteer_compat_optinteger
#define luaL_newmetatable lsteer_compat_newmetatable
#define luaL_checkudata lsteer_compat_checkudata
#define lua_newuserdatauv lsteer_compat_newuserdatauv
#define lua_getiuservalue lsteer_compat_getiuservalue
#define lua_setiuservalue lsteer_compat_setiuservalue
#define lua_toclose lsteer_compat_toclose
#define lua_closeslot lsteer_compat_closeslot
#define lua_warning lsteer_compat_warning
#define luaL_checkversion(L) ((void)(L))
#define lua_pushfstring lsteer_compat_pushfstring
#define lua_pushstring lsteer_compat_pushstring
#define lua_pushlstring lsteer_compat_pushlstring
#define luaL_error lsteer_compat_error
#undef lua_pushcfunction
#define lua_pushcfunction lsteer_compat_pushcfunction
#define luaL_argerror lsteer_compat_argerror
#define luaL_checktype lsteer_compat_checktype
#undef luaL_checkstring
#define luaL_checkstring(L, n) lsteer_compat_checklstring((L), (n), NULL)
#define luaL_checklstring lsteer_compat_checklstring
#define luaL_checknumber lsteer_compat_checknumber

#endif /* LUA_VERSION_NUM < 503 */

#endif
