"""The web front end in real Chromium (Selenium), against the real intranet-server binary.

Run by scripts/web-e2e, which starts the server and passes its address and accounts in the
environment: WEB_BASE, WEB_EDITOR, WEB_READER, WEB_ADMIN (usernames; WEB_PASSWORD is every
account's password) and WEB_SCREENSHOTS (a folder for the screenshots it saves).
"""

import http.cookiejar
import json
import os
import re
import unittest
import urllib.error
import urllib.parse
import urllib.request

import feedparser
from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

BASE = os.environ["WEB_BASE"]
PASSWORD = os.environ["WEB_PASSWORD"]
EDITOR = os.environ["WEB_EDITOR"]
READER = os.environ["WEB_READER"]
ADMIN = os.environ["WEB_ADMIN"]
SHOTS = os.environ["WEB_SCREENSHOTS"]

DESKTOP = (1280, 900)
PHONE = (360, 740)


def browser(size=DESKTOP, dark=False):
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={size[0]},{size[1]}")
    options.binary_location = os.environ.get("WEB_CHROMIUM", "/usr/bin/chromium")
    driver = webdriver.Chrome(options=options, service=Service(os.environ.get("WEB_CHROMEDRIVER", "/usr/bin/chromedriver")))
    driver.set_window_size(*size)
    if dark:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    return driver


def api(method, path, body=None, token=None):
    """A JSON request to the API; answers (status, parsed body or None)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(BASE + path, data=data, method=method)
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        text = error.read()
        problem = error.headers.get("Content-Type", "") == "application/problem+json"
        return error.code, json.loads(text) if text and problem else None


def api_token(username):
    status, answer = api("POST", "/login", {"username": username, "password": PASSWORD})
    assert status == 200, status
    return answer["token"]


def sign_in(driver, username):
    driver.get(BASE + "/login")
    driver.find_element(By.ID, "username").send_keys(username)
    driver.find_element(By.ID, "password").send_keys(PASSWORD)
    submit(driver, "form.stacked button[type=submit]")
    assert driver.current_url == BASE + "/", driver.current_url


def left(page):
    """A wait condition: the browser has left the page `page` was the root of (Chromium reports
    a node of a page being replaced either as stale or as not in the document)."""
    def check(_driver):
        try:
            page.is_enabled()
            return False
        except WebDriverException:
            return True
    return check


def submit(driver, selector):
    """Clicks a form's button (or a link) and waits for the next page."""
    page = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.CSS_SELECTOR, selector).click()
    WebDriverWait(driver, 10).until(left(page))
    WebDriverWait(driver, 10).until(expected_conditions.presence_of_element_located((By.TAG_NAME, "main")))


def click_link(driver, text):
    page = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.LINK_TEXT, text).click()
    WebDriverWait(driver, 10).until(left(page))
    WebDriverWait(driver, 10).until(expected_conditions.presence_of_element_located((By.TAG_NAME, "main")))


def shoot(driver, name):
    os.makedirs(SHOTS, exist_ok=True)
    driver.save_screenshot(os.path.join(SHOTS, name + ".png"))


def post_form(path, fields, cookie):
    """A form POST outside the browser, with the browser's session cookie (what a forged or
    replayed form would send)."""
    data = urllib.parse.urlencode(fields).encode()
    request = urllib.request.Request(BASE + path, data=data, method="POST")
    request.add_header("Content-Type", "application/x-www-form-urlencoded")
    request.add_header("Accept", "text/html")
    request.add_header("Cookie", cookie)
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def session_cookie(driver):
    cookie = driver.get_cookie("intranet_session")
    assert cookie is not None and cookie["httpOnly"], cookie
    return "intranet_session=" + cookie["value"]


def titles(driver):
    return [link.text for link in driver.find_elements(By.CSS_SELECTOR, "ol.announcements h2 a")]


def serious_violations(driver):
    axe = Axe(driver)
    # The page allows its own script only (CSP); the accessibility check runs with the policy bypassed.
    driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": True})
    driver.refresh()
    axe.inject()
    results = axe.run()
    driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": False})
    return [
        v["id"] + ": " + v["help"] + " " + str([(node["target"], node.get("failureSummary", "")) for node in v["nodes"]][:2])
        for v in results["violations"] if v.get("impact") in ("serious", "critical")
    ]


class WebFrontEnd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.editor_token = api_token(EDITOR)
        # Enough announcements for three pages, one restricted to the reader, one with a script.
        for number in range(1, 19):
            api("POST", "/announcements", {"title": f"Canteen notice {number}", "body": f"<p>Menu of week {number}.</p>"}, cls.editor_token)
        status, reader = api("GET", "/users/me", token=api_token(READER))
        assert status == 200
        status, cls.restricted = api("POST", "/announcements", {"title": "Board only", "body": "<p>Minutes</p>", "readers": [reader["id"]]}, cls.editor_token)
        assert status == 201
        status, cls.nasty = api("POST", "/announcements", {
            "title": "Scripted",
            "body": "<p>Safe text</p><script>document.title='pwned';alert(1)</script>"
                    "<img src=\"/nothing.png\" alt=\"\" onerror=\"document.title='pwned';alert(2)\">"
                    "<a href=\"javascript:alert(3)\">link</a>",
        }, cls.editor_token)
        assert status == 201

    def setUp(self):
        self.driver = browser()

    def tearDown(self):
        self.driver.quit()

    def test_read_page_search_open(self):
        driver = self.driver
        driver.get(BASE + "/")
        self.assertEqual(driver.title, "Announcements · Intranet")
        first = titles(driver)
        status, newest = api("GET", "/announcements?sort=createdAt&order=desc&max=10")
        self.assertEqual(first, [item["title"] for item in newest], "newest first, as the API lists them")
        shoot(driver, "list-desktop")
        submit(driver, "a[rel=next]")
        self.assertIn("page=2", driver.current_url)
        second = titles(driver)
        self.assertTrue(second and not set(second) & set(first))
        driver.find_element(By.ID, "q").send_keys("ssh keys")
        submit(driver, "form.search button")
        self.assertEqual(titles(driver), ["Security: rotate your SSH keys by 15 December"])
        click_link(driver, "Security: rotate your SSH keys by 15 December")
        self.assertEqual(driver.find_element(By.TAG_NAME, "h1").text, "Security: rotate your SSH keys by 15 December")
        self.assertTrue(driver.find_elements(By.CSS_SELECTOR, ".body code, .body p"))
        self.assertFalse(driver.find_elements(By.LINK_TEXT, "Edit"), "signed out: no edit controls")
        shoot(driver, "detail-desktop")

    def test_mistyped_address_is_the_sites_404_page(self):
        driver = self.driver
        driver.get(BASE + "/no-such-page")
        self.assertEqual(driver.find_element(By.TAG_NAME, "html").get_attribute("lang"), "en")
        headings = driver.find_elements(By.TAG_NAME, "h1")
        self.assertEqual([h.text for h in headings], ["Not found"], "one h1, the layout's 404")
        self.assertIn("There is no page at this address.", driver.find_element(By.TAG_NAME, "main").text)
        self.assertTrue(driver.find_elements(By.CSS_SELECTOR, "nav[aria-label=Site] a"), "the site's navigation")
        shoot(driver, "unknown-address-desktop")
        status, problem = api("GET", "/no-such-page")
        self.assertEqual(status, 404)
        self.assertEqual(problem and problem["status"], 404, "API clients keep the problem body")

    def test_editor_creates_edits_deletes(self):
        driver = self.driver
        sign_in(driver, EDITOR)
        click_link(driver, "New announcement")
        shoot(driver, "new-form-desktop")
        driver.find_element(By.ID, "title").send_keys("Fire drill")
        driver.find_element(By.ID, "body").send_keys("<p>Thursday at <strong>ten</strong>.</p>")
        submit(driver, "form.stacked button[type=submit]")
        self.assertEqual(driver.find_element(By.TAG_NAME, "h1").text, "Fire drill")
        self.assertEqual(driver.find_element(By.CSS_SELECTOR, ".body strong").text, "ten")
        detail_url = driver.current_url

        click_link(driver, "Edit")
        title = driver.find_element(By.ID, "title")
        title.clear()
        title.send_keys("Fire drill moved")
        submit(driver, "form.stacked button[type=submit]")
        self.assertEqual(driver.current_url, detail_url)
        self.assertEqual(driver.find_element(By.TAG_NAME, "h1").text, "Fire drill moved")

        # An empty title is refused with the reason, nothing saved.
        click_link(driver, "Edit")
        driver.find_element(By.ID, "title").clear()
        driver.find_element(By.ID, "title").send_keys("   ")
        submit(driver, "form.stacked button[type=submit]")
        self.assertIn("must not be empty", driver.find_element(By.CSS_SELECTOR, "[role=alert]").text)
        shoot(driver, "edit-error-desktop")

        driver.get(detail_url)
        click_link(driver, "Delete")
        self.assertEqual(driver.find_element(By.TAG_NAME, "h1").text, "Delete “Fire drill moved”?")
        shoot(driver, "delete-confirm-desktop")
        submit(driver, "main form button[type=submit]")
        self.assertEqual(driver.current_url, BASE + "/")
        driver.get(detail_url)
        self.assertEqual(driver.find_element(By.TAG_NAME, "h1").text, "Not found")

    def test_attach_pictures_and_files_without_javascript(self):
        images = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "IntranetServerTests", "Fixtures", "images")
        token = api_token(EDITOR)
        status, created = api("POST", "/announcements", {"title": "New canteen", "body": "<p>Menus and floor plan below.</p>"}, token)
        self.assertEqual(status, 201, created)
        detail_url = BASE + "/announcements/%d" % created["id"]
        driver = self.driver
        sign_in(driver, EDITOR)
        driver.get(detail_url + "/edit")
        # The form needs no script: the browser sends the file as multipart/form-data.
        driver.execute_script("document.querySelectorAll('script').forEach(s => s.remove())")
        driver.find_element(By.ID, "file").send_keys(os.path.abspath(os.path.join(images, "gps.jpg")))
        driver.find_element(By.ID, "alt").send_keys("The canteen's new terrace")
        submit(driver, "#attach")
        self.assertTrue(driver.current_url.endswith("/edit#files"), driver.current_url)
        driver.find_element(By.ID, "file").send_keys(os.path.abspath(os.path.join(images, "truncated.jpg")))
        submit(driver, "#attach")
        self.assertIn("truncated or corrupt", driver.find_element(By.CSS_SELECTOR, "[role=alert]").text)
        pdf = os.path.join(SHOTS, "menu.pdf")
        os.makedirs(SHOTS, exist_ok=True)
        with open(pdf, "wb") as file:
            file.write(b"%PDF-1.4\n% weekly menu\n" + b"x" * 20000)
        driver.find_element(By.ID, "file").send_keys(os.path.abspath(pdf))
        submit(driver, "#attach")
        listed = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#files ul.files li")]
        self.assertEqual(len(listed), 2, listed)
        self.assertIn("800×1200", listed[0])
        self.assertIn("PDF", listed[1])
        shoot(driver, "attachments-edit-desktop")
        self.assertEqual(serious_violations(driver), [])

        driver.get(detail_url)
        picture = driver.find_element(By.CSS_SELECTOR, "figure.attached-image img")
        self.assertEqual(picture.get_attribute("alt"), "The canteen's new terrace")
        self.assertIn("320w", picture.get_attribute("srcset"))
        WebDriverWait(driver, 10).until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", picture))
        file_link = driver.find_element(By.CSS_SELECTOR, "section.attachments ul.files a")
        self.assertEqual(file_link.text, "menu.pdf")
        self.assertIn("PDF, 20 KB", driver.find_element(By.CSS_SELECTOR, "section.attachments ul.files li").text)
        shoot(driver, "attachments-page-desktop")
        self.assertEqual(serious_violations(driver), [])

        # On a small phone (320 CSS pixels, a device pixel ratio of 1) the browser picks the
        # 320-pixel variant, not the 800-pixel picture (at 360 the column needs more than 320).
        phone = browser((320, 640))
        try:
            sign_in(phone, READER)
            phone.get(detail_url)
            small = phone.find_element(By.CSS_SELECTOR, "figure.attached-image img")
            WebDriverWait(phone, 10).until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", small))
            self.assertTrue(small.get_attribute("currentSrc").endswith("/file/320"), small.get_attribute("currentSrc"))
            shoot(phone, "attachments-page-phone")
        finally:
            phone.quit()

        driver.get(detail_url + "/edit")
        submit(driver, "#files ul.files li form button")
        self.assertEqual(len(driver.find_elements(By.CSS_SELECTOR, "#files ul.files li")), 1)

    def test_times_in_the_readers_zone(self):
        # The site's zone is UTC; this browser is in Tokyo (UTC+9): the page's script shows
        # times there and fills the form there, and the server reads the form so.
        status, post = api("POST", "/announcements", {
            "title": "Lisbon office opening", "body": "<p>Doors at nine.</p>", "publishAt": "2030-01-15T08:00:00Z"}, self.editor_token)
        self.assertEqual(status, 201)
        driver = self.driver
        driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Tokyo"})
        sign_in(driver, EDITOR)
        driver.get(f"{BASE}/announcements/{post['id']}")
        scheduled = driver.find_element(By.CSS_SELECTOR, "p.notice time")
        self.assertEqual(scheduled.text, "15 January 2030, 17:00 GMT+9")
        self.assertEqual(scheduled.get_attribute("title"), "15 January 2030, 08:00 UTC", "the site's text is kept as its title")

        driver.get(f"{BASE}/announcements/{post['id']}/edit")
        publish_at = driver.find_element(By.ID, "publishAt")
        self.assertEqual(publish_at.get_attribute("value"), "2030-01-15T17:00")
        self.assertEqual(driver.find_element(By.CSS_SELECTOR, "input[name=zone]").get_attribute("value"), "Asia/Tokyo")
        self.assertEqual(driver.find_element(By.CSS_SELECTOR, "[data-zone-name]").text, "Asia/Tokyo")
        driver.execute_script("arguments[0].value = '2030-01-15T18:30'", publish_at)
        submit(driver, "form.stacked button[type=submit]")
        status, saved = api("GET", f"/announcements/{post['id']}", token=self.editor_token)
        self.assertEqual(saved["publishAt"], "2030-01-15T09:30:00.000Z", "18:30 in Tokyo")

    def test_reader_cannot_edit_and_sees_restricted(self):
        driver = self.driver
        restricted = f"{BASE}/announcements/{self.restricted['id']}"
        driver.get(restricted)
        self.assertEqual(driver.find_element(By.TAG_NAME, "h1").text, "Not found", "hidden from the signed out")
        sign_in(driver, READER)
        driver.get(restricted)
        self.assertEqual(driver.find_element(By.TAG_NAME, "h1").text, "Board only")
        self.assertFalse(driver.find_elements(By.LINK_TEXT, "Edit"))
        driver.get(BASE + "/")
        self.assertFalse(driver.find_elements(By.LINK_TEXT, "New announcement"))
        driver.get(BASE + "/announcements/new")
        self.assertEqual(driver.find_element(By.TAG_NAME, "h1").text, "Not allowed")
        # The form posted anyway, with the reader's own valid CSRF token: refused, nothing made.
        driver.get(BASE + "/")
        csrf = driver.find_element(By.CSS_SELECTOR, "form[action='/logout'] input[name=csrf]").get_attribute("value")
        status = post_form("/announcements", {"title": "Reader's post", "body": "", "csrf": csrf}, session_cookie(driver))
        self.assertEqual(status, 403)
        status, page = api("GET", "/announcements?max=100", token=self.editor_token)
        self.assertNotIn("Reader's post", [item["title"] for item in page])

    def test_forged_form_is_rejected(self):
        driver = self.driver
        sign_in(driver, EDITOR)
        cookie = session_cookie(driver)
        self.assertEqual(post_form("/announcements", {"title": "Forged", "csrf": "0" * 64}, cookie), 403)
        self.assertEqual(post_form("/announcements", {"title": "Forged"}, cookie), 403)
        driver.get(BASE + "/?q=Forged")
        self.assertEqual(titles(driver), [])

    def test_script_in_a_body_never_runs(self):
        driver = self.driver
        driver.get(f"{BASE}/announcements/{self.nasty['id']}")
        self.assertEqual(driver.find_element(By.CSS_SELECTOR, ".body p").text, "Safe text")
        with self.assertRaises(NoAlertPresentException):
            driver.switch_to.alert.text
        self.assertEqual(driver.title, "Scripted · Intranet")
        scripts = [element.get_attribute("src") for element in driver.find_elements(By.TAG_NAME, "script")]
        self.assertEqual(scripts, [BASE + "/site.js"], "the site's own script only")
        self.assertFalse(driver.find_elements(By.CSS_SELECTOR, ".body script"))
        self.assertFalse(driver.find_elements(By.CSS_SELECTOR, "a[href^='javascript']"))

    def test_admin_manages_users(self):
        driver = self.driver
        sign_in(driver, ADMIN)
        click_link(driver, "Users")
        driver.find_element(By.ID, "new-username").send_keys("zoe")
        driver.find_element(By.ID, "new-name").send_keys("Zoë Park")
        driver.find_element(By.ID, "new-password").send_keys("a long enough password")
        submit(driver, "form[action='/users'] button")
        self.assertIn("The account was created.", driver.find_element(By.CSS_SELECTOR, ".notice").text)
        self.assertIn("Zoë Park", driver.page_source)
        shoot(driver, "users-desktop")

    def test_people_search_card_and_organisation(self):
        driver = self.driver
        driver.get(BASE + "/")
        click_link(driver, "People")
        self.assertEqual(driver.title, "People · Intranet")
        driver.find_element(By.ID, "q").send_keys("LEFEVRE")
        submit(driver, "form.search button")
        names = [link.text for link in driver.find_elements(By.CSS_SELECTOR, "ul.people a")]
        self.assertEqual(names, ["Zoë Lefèvre"], "accents and case ignored")
        click_link(driver, "Zoë Lefèvre")
        self.assertEqual(driver.find_element(By.TAG_NAME, "h1").text, "Zoë Lefèvre")
        shoot(driver, "person-desktop")
        click_link(driver, "Kwame Mensah")
        self.assertEqual(driver.find_element(By.TAG_NAME, "h1").text, "Kwame Mensah")
        click_link(driver, "Zoë Lefèvre")
        click_link(driver, "Where Zoë Lefèvre is in the organisation")
        self.assertTrue(driver.current_url.endswith("/org#p3"))
        reports = [link.text for link in driver.find_elements(By.CSS_SELECTOR, "li#p3 > ul > li > a")]
        self.assertEqual(reports, ["Kwame Mensah", "Lena Fischer"], "reports nest under their manager")
        self.assertEqual(len(driver.find_elements(By.CSS_SELECTOR, "ul.org li")), 40)
        shoot(driver, "org-desktop")

    def test_one_search_from_the_header(self):
        driver = self.driver
        driver.get(BASE + "/people/3")
        box = driver.find_element(By.ID, "site-search")
        self.assertEqual(box.accessible_name, "Search")
        box.send_keys("lefevre")
        submit(driver, "form.site-search button")
        self.assertTrue(driver.current_url.startswith(BASE + "/search?q=lefevre"), driver.current_url)
        self.assertEqual(driver.title, "Search: “lefevre” · Intranet")
        people = [link.text for link in driver.find_elements(By.CSS_SELECTOR, "section[aria-labelledby=people-results] ol.results a")]
        self.assertEqual(people, ["Zoë Lefèvre"])
        marks = [mark.text for mark in driver.find_elements(By.CSS_SELECTOR, "section[aria-labelledby=announcement-results] .snippet mark")]
        self.assertIn("Lefèvre", marks)
        shoot(driver, "search-desktop")
        # A reader's restricted post is not found signed out.
        self.assertNotIn("Board only", driver.page_source)
        driver.find_element(By.ID, "search-q").clear()
        driver.find_element(By.ID, "search-q").send_keys('"board only"')
        submit(driver, "form.search button")
        self.assertEqual(driver.find_elements(By.CSS_SELECTOR, "section[aria-labelledby=announcement-results] ol.results a"), [])
        sign_in(driver, READER)
        driver.get(BASE + "/search?q=%22board+only%22")
        titles = [link.text for link in driver.find_elements(By.CSS_SELECTOR, "section[aria-labelledby=announcement-results] ol.results a")]
        self.assertEqual(titles, ["Board only"], "its reader finds it")

    def test_acknowledge_with_a_button_and_the_editors_reach(self):
        driver = self.driver
        status, post = api("POST", "/announcements", {
            "title": "Fire drill on Friday", "body": "<p>Assemble in the car park.</p>",
            "acknowledgement": {"required": True, "dueAt": "2031-01-15T09:00:00Z"},
        }, self.editor_token)
        self.assertEqual(status, 201)
        page = f"{BASE}/announcements/{post['id']}"
        driver.get(page)
        self.assertIn("Sign in", driver.find_element(By.CSS_SELECTOR, "section.acknowledgement").text)
        sign_in(driver, READER)
        driver.get(BASE + "/acknowledgements")
        self.assertIn("Fire drill on Friday", [link.text for link in driver.find_elements(By.CSS_SELECTOR, "ul.pending a")])
        self.assertEqual(serious_violations(driver), [])
        click_link(driver, "Fire drill on Friday")
        self.assertEqual(serious_violations(driver), [])
        shoot(driver, "acknowledge-desktop")
        submit(driver, "section.acknowledgement button[type=submit]")
        self.assertEqual(driver.current_url, page)
        confirmed = driver.find_element(By.CSS_SELECTOR, "section.acknowledgement .confirmed")
        self.assertIn("You confirmed", confirmed.text)
        self.assertFalse(driver.find_elements(By.CSS_SELECTOR, "section.acknowledgement button"), "no second button")
        driver.get(BASE + "/acknowledgements")
        self.assertNotIn("Fire drill on Friday", driver.find_element(By.TAG_NAME, "main").text)
        # The API agrees: one acknowledgement, by the reader.
        status, reach = api("GET", f"/announcements/{post['id']}/reach", token=self.editor_token)
        self.assertEqual((status, reach["acknowledged"]), (200, 1))

        editor = browser()
        try:
            sign_in(editor, EDITOR)
            editor.get(page)
            click_link(editor, "Reach")
            self.assertEqual(editor.current_url, page + "/reach")
            totals = [item.text for item in editor.find_elements(By.CSS_SELECTOR, "ul.reach-totals li")]
            self.assertIn("Confirmed\n1", totals)
            rows = editor.find_elements(By.CSS_SELECTOR, "table.reach tbody tr")
            self.assertTrue(rows, "a row per department")
            self.assertTrue(editor.find_elements(By.CSS_SELECTOR, "table.reach meter"), "a bar per department")
            self.assertEqual(serious_violations(editor), [])
            shoot(editor, "reach-desktop")
            csv_link = editor.find_element(By.LINK_TEXT, "Download the list of names (CSV)").get_attribute("href")
            request = urllib.request.Request(csv_link, headers={"Cookie": session_cookie(editor)})
            with urllib.request.urlopen(request) as response:
                self.assertTrue(response.headers["Content-Type"].startswith("text/csv"))
                self.assertTrue(response.headers["Content-Disposition"].startswith("attachment"))
                lines = response.read().decode().split("\r\n")
            self.assertEqual(lines[0], "name,email,department,acknowledged_at")
            self.assertEqual(len([line for line in lines if line.split(",")[-1].startswith("20")]), 1, lines)
        finally:
            editor.quit()
        phone = browser(PHONE, dark=True)
        try:
            sign_in(phone, EDITOR)
            phone.get(page + "/reach")
            width = phone.execute_script("return document.documentElement.scrollWidth")
            self.assertLessEqual(width, PHONE[0], "the reach page scrolls sideways at 360 px")
            shoot(phone, "reach-phone-dark")
        finally:
            phone.quit()

    def test_live_notices_without_reload(self):
        driver = self.driver
        # The accessibility check needs axe's own script: the policy is bypassed before loading.
        driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": True})
        driver.get(BASE + "/")
        notice = driver.find_element(By.ID, "live-notice")
        self.assertEqual(notice.text, "")
        self.assertEqual(notice.get_attribute("aria-live"), "polite")
        first = driver.find_element(By.CSS_SELECTOR, "ol.announcements h2 a")
        where, before = first.location, titles(driver)
        driver.execute_script("return new Promise(function (done) { setTimeout(done, 1500); })")  # the stream connects
        status, posted = api("POST", "/announcements", {"title": "Office closed today", "body": "<p>Stay home.</p>"}, self.editor_token)
        self.assertEqual(status, 201)
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "live-notice").text == "1 new announcement — show")
        api("POST", "/announcements", {"title": "Office closed tomorrow too"}, self.editor_token)
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "live-notice").text == "2 new announcements — show")
        self.assertEqual(titles(driver), before, "the list itself is not changed under the reader")
        self.assertEqual(driver.find_element(By.CSS_SELECTOR, "ol.announcements h2 a").location, where, "nothing moved")
        axe = Axe(driver)
        axe.inject()
        problems = [v["id"] for v in axe.run()["violations"] if v.get("impact") in ("serious", "critical")]
        self.assertEqual(problems, [])
        driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": False})
        shoot(driver, "live-notice-desktop")
        click_link(driver, "show")
        self.assertIn("Office closed today", titles(driver))

        driver.get(f"{BASE}/announcements/{posted['id']}")
        driver.execute_script("return new Promise(function (done) { setTimeout(done, 1500); })")
        self.assertEqual(driver.find_element(By.ID, "live-notice").text, "")
        status, _ = api("PATCH", f"/announcements/{posted['id']}", {"title": "Office closed until Monday"}, self.editor_token)
        self.assertEqual(status, 200)
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "live-notice").text == "This announcement was changed — reload")
        self.assertEqual(driver.find_element(By.CSS_SELECTOR, "article h1").text, "Office closed today", "the text stays until the reader reloads")
        click_link(driver, "reload")
        self.assertEqual(driver.find_element(By.CSS_SELECTOR, "article h1").text, "Office closed until Monday")

        phone = browser(PHONE, dark=True)
        try:
            phone.get(BASE + "/")
            phone.execute_script("return new Promise(function (done) { setTimeout(done, 1500); })")
            api("POST", "/announcements", {"title": "Canteen open again"}, self.editor_token)
            WebDriverWait(phone, 10).until(lambda d: d.find_element(By.ID, "live-notice").text == "1 new announcement — show")
            width = phone.execute_script("return document.documentElement.scrollWidth")
            self.assertLessEqual(width, PHONE[0], "the notice fits a 360 px phone")
            shoot(phone, "live-notice-phone-dark")
        finally:
            phone.quit()

    def test_atom_feeds_read_by_a_feed_reader(self):
        # feedparser fetches the feed itself, as a feed reader does.
        public = feedparser.parse(BASE + "/feed.atom")
        self.assertEqual(public.status, 200)
        self.assertEqual(public.headers["content-type"], "application/atom+xml; charset=utf-8")
        self.assertFalse(public.bozo, public.get("bozo_exception"))
        self.assertEqual(public.version, "atom10")
        self.assertEqual(public.feed.title, "Intranet announcements")
        titles = [entry.title for entry in public.entries]
        self.assertIn("Scripted", titles)
        self.assertNotIn("Board only", titles, "a restricted post is not in the public feed")
        scripted = next(entry for entry in public.entries if entry.title == "Scripted")
        self.assertEqual(scripted.link, f"{BASE}/announcements/{self.nasty['id']}")
        self.assertNotIn("<script", scripted.content[0].value)
        self.assertNotIn("onerror", scripted.content[0].value)
        self.assertEqual(len({entry.id for entry in public.entries}), len(public.entries), "ids are unique")
        unchanged = feedparser.parse(BASE + "/feed.atom", etag=public.etag)
        self.assertEqual(unchanged.status, 304, "a reader asking again with the tag gets 304")

        status, made = api("POST", "/users/me/feed-token", token=api_token(READER))
        self.assertEqual(status, 201)
        personal = feedparser.parse(BASE + made["url"])
        self.assertFalse(personal.bozo, personal.get("bozo_exception"))
        self.assertIn("Board only", [entry.title for entry in personal.entries], "the reader's own restricted post")
        self.assertEqual(api("DELETE", "/users/me/feed-token", token=api_token(READER))[0], 204)
        with self.assertRaises(urllib.error.HTTPError) as revoked:
            urllib.request.urlopen(BASE + made["url"])
        self.assertEqual(revoked.exception.code, 404)

    def test_pages_at_phone_width_dark_and_accessible(self):
        phone = browser(PHONE, dark=True)
        try:
            for name, path, user in [
                ("list", "/", None), ("detail", "/announcements/2", None), ("login", "/login", None),
                ("people", "/people", None), ("person", "/people/22", None), ("org", "/org", None),
                ("search", "/search?q=harbour+zo", None),
            ]:
                phone.get(BASE + path)
                width = phone.execute_script("return document.documentElement.scrollWidth")
                self.assertLessEqual(width, PHONE[0], f"{name} scrolls sideways at 360 px")
                shoot(phone, f"{name}-phone-dark")
        finally:
            phone.quit()
        driver = self.driver
        checked = {}
        for path in ["/", "/announcements/2", "/login", "/?q=canteen", "/announcements/999999", "/no-such-page", "/people?q=head", "/people/3", "/org",
                     "/search", "/search?q=lefevre"]:
            driver.get(BASE + path)
            checked[path] = serious_violations(driver)
        sign_in(driver, ADMIN)
        for path in ["/announcements/new", "/announcements/2/edit", "/announcements/2/delete", "/users"]:
            driver.get(BASE + path)
            checked[path] = serious_violations(driver)
        shoot(driver, "edit-desktop")
        failing = {path: problems for path, problems in checked.items() if problems}
        self.maxDiff = None
        self.assertEqual(failing, {}, "serious accessibility violations")


if __name__ == "__main__":
    unittest.main(verbosity=2)
